"""Processes an implementation leaves behind.

The harness makes itself a child subreaper (Linux prctl PR_SET_CHILD_SUBREAPER), so a process the
implementation orphans, double-forks or detaches with setsid comes back to the harness instead of
init, and stays among the harness's descendants. After a case, every descendant started since the
case began that is not the adapter's own process is a leftover: reported, killed, reaped.
"""
from __future__ import annotations

import atexit
import ctypes
import os
import signal
import time
from dataclasses import dataclass

PR_SET_CHILD_SUBREAPER = 36
GRACE = 2.0            # seconds a process killed by the implementation's own close may take to go
_TICKS = os.sysconf("SC_CLK_TCK")
_active: dict = {}     # pid -> when this process became a subreaper (a fork starts again)
_commands: dict = {}   # (pid, start) -> command line, read once


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    state: str
    start: int        # clock ticks since boot
    name: str         # the kernel's name for it (stat's comm), when the command line is gone

    @property
    def running(self) -> bool:
        return self.state not in ("Z", "X")

    @property
    def command(self) -> str:
        """Its command line, read only when asked: most scans find no leftover to describe."""
        cached = _commands.get((self.pid, self.start))
        if cached is None:
            try:
                with open(f"/proc/{self.pid}/cmdline", "rb") as fh:
                    argv = fh.read(4096)
            except OSError:
                argv = b""
            cached = " ".join(a.decode(errors="replace") for a in argv.split(b"\0") if a) or f"[{self.name}]"
            _commands[(self.pid, self.start)] = cached = cached[:120]
        return cached

    def __str__(self) -> str:
        return f"{self.command} (pid {self.pid})"


def become_subreaper() -> bool:
    """Once per process; False where the kernel has no subreapers (then orphans go to init)."""
    if os.getpid() not in _active:
        try:
            ok = ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        except (OSError, AttributeError):
            ok = False
        _active[os.getpid()] = (now(), ok)
        atexit.register(kill_leftovers)
    return _active[os.getpid()][1]


def kill_leftovers() -> list[Proc]:
    """At the end of a run: kill every descendant started since this process became a
    subreaper (the adapter is closed by then). Returns what was killed."""
    if os.getpid() not in _active:
        return []
    since = _active[os.getpid()][0]
    left = [p for p in descendants().values() if p.start >= since and p.running]
    for p in left:
        p.command  # read while the process still has its command line
    kill(left)
    reap(since, set())
    return left


def kill_since(since: "Mark", spare: set[int] = frozenset()) -> list[Proc]:
    """Kill every descendant started since the mark (an adapter's start), apart from the processes
    in `spare` and everything below them (another adapter still in use). Returns what was killed."""
    found = descendants()
    spared = set(spare)
    for pid in spare:
        spared |= set(descendants(pid))
    left = [p for p in found.values() if p.start >= since.ticks and p.running and p.pid not in spared]
    for p in left:
        p.command  # read while the process still has its command line
    kill(left)
    reap(since.ticks, spared)
    return left


def now() -> int:
    """The clock /proc/<pid>/stat counts process start times in (ticks since boot)."""
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * _TICKS)


@dataclass(frozen=True)
class Mark:
    """A moment to find the processes started since: the start-time clock, and the last pid the
    kernel handed out then (None where /proc/sys/kernel/ns_last_pid cannot be read)."""
    ticks: int
    last_pid: int | None
    at: float         # time.monotonic()


def mark() -> Mark:
    return Mark(now(), _last_pid(), time.monotonic())


def _last_pid() -> int | None:
    try:
        fd = os.open("/proc/sys/kernel/ns_last_pid", os.O_RDONLY)
    except OSError:
        return None
    try:
        return int(os.read(fd, 32))
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)


def _pid_max() -> int | None:
    try:
        with open("/proc/sys/kernel/pid_max", "rb") as fh:
            return int(fh.read())
    except (OSError, ValueError):
        return None


_PID_MAX = _pid_max()
NEW_PIDS_WINDOW = 1.0   # seconds: beyond that the pid counter is not trusted not to have come round


def started_since(since: Mark) -> dict[int, Proc] | None:
    """The descendants of this process started since the mark, read from the pids handed out
    since then alone (pids are given in increasing order, wrapping at pid_max), not from every
    process on the machine; a new process whose parent is an older one is ours when that parent
    is (an older process never becomes or stops being a descendant: orphans go up the tree, to
    the nearest subreaper). None where that cannot be decided so: the counter unreadable, the
    mark older than NEW_PIDS_WINDOW (the counter could have come round), or more new pids than
    half the pid space."""
    last = _last_pid()
    if since.last_pid is None or last is None or _PID_MAX is None or time.monotonic() - since.at > NEW_PIDS_WINDOW:
        return None
    handed = (last - since.last_pid) % _PID_MAX
    if handed == 0:
        return {}
    if handed > _PID_MAX // 2:
        return None
    new = {}
    for d in os.listdir("/proc"):
        if d.isdigit() and 0 < (int(d) - since.last_pid) % _PID_MAX <= handed:
            p = _read(d)
            if p is not None and p.start >= since.ticks:
                new[p.pid] = p
    me, found = os.getpid(), {}

    def ours(p: Proc, seen: int = 0) -> bool:
        if p.pid in found:
            return True
        if p.ppid == me:
            ok = True
        elif p.ppid in new and seen < len(new):
            ok = ours(new[p.ppid], seen + 1)
        else:
            ok = _older_is_ours(p.ppid, me)
        if ok:
            found[p.pid] = p
        return ok

    for p in list(new.values()):
        ours(p)
    return found


_older: dict = {}   # (pid, start) of a process older than a mark -> whether it descends from this one


def _older_is_ours(pid: int, me: int) -> bool:
    """Does this process (started before the mark) descend from this one? Up its parents."""
    chain, ok = [], False
    while pid > 1:
        p = _read(str(pid))
        if p is None:
            break
        key = (p.pid, p.start, me)
        if key in _older:
            ok = _older[key]
            break
        chain.append(key)
        if p.ppid == me:
            ok = True
            break
        pid = p.ppid
    for key in chain:
        _older[key] = ok
    return ok


def _read(pid: str) -> Proc | None:
    # os.open/os.read: this runs for every process on the machine twice per case, and a buffered
    # file object costs more than the read itself.
    try:
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
    except OSError:
        return None
    try:
        stat = os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)
    close = stat.rfind(b")")
    if close < 0:
        return None
    rest = stat[close + 2:].split(None, 20)
    name = stat[stat.find(b"(") + 1: close].decode(errors="replace")
    return Proc(int(pid), int(rest[1]), rest[0].decode(), int(rest[19]), name)


def descendants(root: int | None = None) -> dict[int, Proc]:
    """Every process below `root` (default: this one), by pid."""
    root = os.getpid() if root is None else root
    procs = [p for p in map(_read, (d for d in os.listdir("/proc") if d.isdigit())) if p]
    children: dict[int, list[Proc]] = {}
    for p in procs:
        children.setdefault(p.ppid, []).append(p)
    found, todo = {}, [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child.pid not in found:
                found[child.pid] = child
                todo.append(child.pid)
    return found


def leftovers(since: int | Mark, own: set[int]) -> list[Proc]:
    """Descendants started at or after `since` (ticks) that are still running, apart from `own`
    (the adapter's own processes). A process on its way out (killed by close) gets GRACE."""
    return sweep(since, own, kill_them=False)[0]


def _started(since: int | Mark) -> list[Proc]:
    """This process's descendants started since (a Mark, or a start-clock reading in ticks)."""
    if isinstance(since, Mark):
        found = started_since(since)
        if found is not None:
            return list(found.values())
        since = since.ticks
    return [p for p in descendants().values() if p.start >= since]


def sweep(since: int | Mark, own: set[int], kill_them: bool = True) -> tuple[list[Proc], list[Proc]]:
    """After a case: (the leftovers as `leftovers` finds them, what `reap` could not kill). They
    are killed and reaped unless kill_them is false. When the scan finds no process of the case
    at all, running or a zombie, there is nothing to reap and no second scan is made."""
    deadline = time.monotonic() + GRACE
    while True:
        mine = [p for p in _started(since) if p.pid not in own]
        left = [p for p in mine if p.running]
        if not left or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    left.sort(key=lambda p: p.pid)
    for p in left:
        p.command  # read while the process still has its command line
    if not kill_them or not mine:
        return left, []
    kill(left)
    return left, reap(since, own)


def kill(procs: list[Proc]) -> None:
    for p in procs:
        try:
            os.kill(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def still_running(p: Proc) -> bool:
    """Is this very process (its pid, started when it was) still running (not gone, not a zombie)?"""
    seen = _read(str(p.pid))
    return seen is not None and seen.start == p.start and seen.running


def wait_gone(procs: list[Proc], timeout: float) -> None:
    """Wait up to `timeout` seconds until none of these processes runs (gone, or a zombie)."""
    deadline = time.monotonic() + timeout
    while (procs := [p for p in procs if still_running(p)]) and time.monotonic() < deadline:
        time.sleep(0.02)


def reap(since: int | Mark, own: set[int]) -> list[Proc]:
    """Collect the zombies among this process's children started since `since`, except `own`
    (whose exit status a Popen still wants to read), waiting up to GRACE for killed ones to die.
    Returns what is still running then."""
    deadline = time.monotonic() + GRACE
    me = os.getpid()
    while True:
        mine = [p for p in _started(since) if p.pid not in own]
        for p in mine:
            if p.ppid == me and not p.running:
                try:
                    os.waitpid(p.pid, os.WNOHANG)
                except ChildProcessError:
                    pass
        running = [p for p in mine if p.running]
        if not running or time.monotonic() >= deadline:
            return running
        time.sleep(0.02)


def describe(procs: list[Proc]) -> str:
    n = len(procs)
    return f"left {n} process{'es' if n != 1 else ''} running: " + ", ".join(map(str, procs))
