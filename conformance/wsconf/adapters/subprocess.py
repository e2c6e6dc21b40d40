"""Any implementation that speaks spec/protocol.md on stdin/stdout, run as one long-lived process.

Nothing the process does can stall the harness: every write, read and wait has a deadline, a
response line is capped (max_line), stderr keeps only its tail, and whatever goes wrong (an exit,
a closed stdout, garbage, a wrong id, a line over the cap) kills the process group; the next case
starts a fresh process."""
from __future__ import annotations

import json
import os
import queue
import select
import signal
import subprocess
import threading
import time

from ..isolation import confine, reaper
from ..isolation.confine import Confinement
from ..isolation.tree import run_dir, set_owner
from ..spec.capability_aliases import expand
from ..spec.resources import data_path
from ..spec.tool_names import tool_id
from .answers import answer_problem, hello_problem
from .base import (
    Adapter,
    AdapterFault,
    AdapterTimeout,
    AdapterUnavailable,
    OpenError,
    Session,
)

PROTOCOL_VERSION = 1
DEFAULT_MAX_LINE = 64 * 1024 * 1024
STDERR_KEPT = 64 * 1024     # bytes of stderr tail shown when something breaks
EXIT_GRACE = 1.0            # seconds between a closed stdout (or an exit) and the verdict
SHUTDOWN_GRACE = 2.0        # seconds it may take to end after answering shutdown
WRAPPERS = ("bwrap", "setpriv")  # the confinement's own processes (isolation/confine.py)
_EOF, _TOO_LONG = object(), object()
LIVE: set[int] = set()      # the processes of the protocol adapters in use, in this harness process


def default_confinement() -> Confinement:
    """Confined where the kernel allows, with the bundled spec and expectations hidden (the session
    names more: the run's own spec, expectations and results; session/plugin.py)."""
    spec = data_path("spec")
    return confine.choose("auto", hidden=[spec, data_path("expectations")], shown=[spec / "fixtures"])


class ProtocolProcess:
    """One running adapter process: send a request, wait for the answer with the same id."""

    def __init__(self, argv: list[str], timeout: float, max_line: int = DEFAULT_MAX_LINE, env=None):
        self.argv = argv
        self.timeout = timeout
        self.max_line = max_line
        self._stderr = b""
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, start_new_session=True, env=env, bufsize=0)
        except OSError as exc:
            raise AdapterFault(f"could not start adapter {' '.join(argv)!r}: {exc}") from None
        LIVE.add(self.proc.pid)
        os.set_blocking(self.proc.stdin.fileno(), False)
        # One line waits at most: what an implementation prints unasked cannot pile up in memory.
        self.lines: queue.Queue = queue.Queue(maxsize=1)
        self.holding = False
        self.dead = False
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()
        self.next_id = 0
        self.busy = False   # a request was interrupted before its answer came: never ask it again
        self.wrappers = []  # the confinement's own processes (bwrap, setpriv), as last seen
        self.own: set[int] = {self.proc.pid}
        self.extras: list[dict] = []
        self.last_op = "hello"

    def _read_stdout(self):
        """Split stdout into lines; a line over max_line stops the reading (the verdict kills)."""
        fd, parts, size = self.proc.stdout.fileno(), [], 0
        try:
            while chunk := os.read(fd, 1 << 20):
                while chunk:
                    end = chunk.find(b"\n")
                    piece, chunk = (chunk, b"") if end < 0 else (chunk[:end], chunk[end + 1:])
                    parts.append(piece)
                    size += len(piece)
                    if size > self.max_line:
                        self._put(_TOO_LONG)
                        return
                    if end >= 0:
                        self._put(b"".join(parts))
                        parts, size = [], 0
        except OSError:
            pass
        finally:
            self._put(_EOF)

    def _put(self, item) -> None:
        self.holding = True  # a line read and waiting for room: it came in before what is asked next
        try:
            while not self.dead:
                try:
                    self.lines.put(item, timeout=0.1)
                    return
                except queue.Full:
                    pass
        finally:
            self.holding = False

    def _read_stderr(self):
        fd = self.proc.stderr.fileno()
        try:
            while chunk := os.read(fd, 1 << 16):
                self._stderr = (self._stderr + chunk)[-STDERR_KEPT:]
        except OSError:
            pass

    def stderr_text(self) -> str:
        if self.proc.poll() is not None:
            self._stderr_reader.join(timeout=2)  # an exited process: let its last lines arrive first
        lines = self._stderr.decode("utf-8", "replace").splitlines()[-40:]
        tail = "\n".join(line for line in lines if line)
        return f"\n--- adapter stderr (last lines) ---\n{tail}" if tail else ""

    def _send(self, data: bytes, op: str, limit: float, deadline: float) -> None:
        try:
            fd = self.proc.stdin.fileno()
            ready = select.poll()
            ready.register(fd, select.POLLOUT)
            while data:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self.kill()
                    raise AdapterTimeout(f"adapter did not read the {op!r} request within {limit:g} s"
                                         + self.stderr_text())
                if ready.poll(remaining * 1000):
                    try:
                        data = data[os.write(fd, data):]
                    except BlockingIOError:
                        pass
        except (OSError, ValueError):
            try:
                self.proc.wait(timeout=2)  # it is exiting: wait briefly for its exit code
            except subprocess.TimeoutExpired:
                pass
            code = self.proc.poll()
            self.kill()
            raise AdapterFault(f"adapter process exited (code {code}) before {op!r}" + self.stderr_text()) from None

    def _next_line(self, op: str, limit: float, deadline: float):
        exited_at = None
        while True:
            try:
                return self.lines.get(timeout=max(0.0, min(deadline - time.monotonic(), 0.1)))
            except queue.Empty:
                pass
            now = time.monotonic()
            if self.proc.poll() is not None:
                exited_at = exited_at or now
                if now - exited_at >= EXIT_GRACE:
                    return _EOF  # it exited, but a child of it holds stdout open: no EOF will come
            if now >= deadline:
                self.kill()
                raise AdapterTimeout(f"adapter did not answer {op!r} within {limit:g} s" + self.stderr_text())

    def request(self, op: str, params: dict, timeout: float | None = None):
        self.next_id += 1
        rid = self.next_id
        limit = timeout or self.timeout
        deadline = time.monotonic() + limit
        line = json.dumps({"id": rid, "op": op, "params": params})  # ASCII: lone surrogates survive
        self._unasked(op)
        self.busy = True
        self._send(line.encode() + b"\n", op, limit, deadline)
        raw = self._next_line(op, limit, deadline)
        self.busy = False
        self.last_op = op
        if raw is _EOF:
            try:
                code = self.proc.wait(timeout=EXIT_GRACE)
            except subprocess.TimeoutExpired:
                self.kill()
                raise AdapterFault(f"adapter closed its stdout during {op!r} and kept running: "
                                   "killed its process group" + self.stderr_text()) from None
            self.kill()  # what is left of its process group
            raise AdapterFault(f"adapter process exited (code {code}) during {op!r}" + self.stderr_text())
        if raw is _TOO_LONG:
            self.kill()
            raise AdapterFault(f"adapter sent a response line over the limit of {self.max_line:,} bytes "
                               f"during {op!r} (--max-line)" + self.stderr_text())
        text = raw.decode("utf-8", "surrogateescape")
        del raw  # a huge line: hold one copy of it, not two
        try:
            msg = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            self.kill()
            raise AdapterFault(f"adapter printed a line that is not JSON during {op!r}: {text[:200]!r}"
                               + self.stderr_text()) from None
        del text
        if not isinstance(msg, dict) or msg.get("id") != rid:
            self.kill()
            got = msg.get("id") if isinstance(msg, dict) else None
            raise AdapterFault(f"adapter answered id {got!r} to request {rid} ({op!r})")
        extra = {k: v for k, v in msg.items() if k not in ("id", "ok", "result")}
        if extra:  # looked at for leaks like the result (judge/runner.py); never shown raw
            self.extras.append(extra)
        if msg.get("ok") is not True:
            raise AdapterFault(f"adapter fault on {op!r}: {str(msg.get('fault', '(no message)'))[:2000]}")
        if "result" not in msg:
            raise AdapterFault(f"adapter answered {op!r} with ok and no `result`")
        problem = answer_problem(op, msg["result"])
        if problem:
            raise AdapterFault(f"adapter answered {op!r} with the wrong shape: {problem}")
        return msg["result"]

    def _unasked(self, op: str) -> None:
        """A line already waiting before a request is sent was printed after the last answer, unasked:
        a fault named so (not as the answer to this request), and the process is not asked again."""
        try:
            raw = self.lines.get(timeout=1.0) if self.holding else self.lines.get_nowait()
        except queue.Empty:
            return
        self.kill()
        if raw is _EOF:
            raise AdapterFault(f"adapter process ended its stdout after its answer to {self.last_op!r}, "
                               f"before {op!r}" + self.stderr_text())
        shown = "a line over the limit" if raw is _TOO_LONG else repr(raw.decode("utf-8", "replace")[:200])
        raise AdapterFault(f"adapter printed a line after its answer to {self.last_op!r}, unasked (before {op!r}): "
                           f"{shown}" + self.stderr_text())

    def check_unasked(self) -> None:
        """At the end of a case: whatever it printed unasked since its last answer, its fault."""
        if self.alive():
            self._unasked("the next case")

    def take_extras(self) -> list[dict]:
        """The response members beside id, ok and result since the last call (a fault's message too)."""
        extras, self.extras = self.extras, []
        return extras

    def alive(self) -> bool:
        return self.proc.poll() is None and not self.busy

    def kill(self) -> None:
        """SIGKILL the whole process group; bounded waits only."""
        self.dead = True
        LIVE.discard(self.proc.pid)
        # The confinement's own processes go with it, and are waited for: the inner bwrap is in a
        # session of its own (and no longer below the outer one once that has ended), and one still
        # dying would be taken for the implementation's leftover.
        wrappers = self.wrappers + [p for p in reaper.descendants(self.proc.pid).values() if p.name in WRAPPERS]
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        reaper.kill(wrappers)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass  # stuck in the kernel: the reaper reports it
        reaper.wait_gone(wrappers, timeout=2)
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def shutdown(self) -> list:
        """Ask it to end, give it SHUTDOWN_GRACE to go, kill what is left of it. Returns the processes
        it left running when it ended (besides itself and bwrap's): those that still ran while its
        main process did, the last time that was looked at (a confined one's pid namespace, and
        everything in it, ends with its main process: what dies then was not ended by it)."""
        left = []
        if self.proc.poll() is None and not self.busy:
            main, left = self._besides_itself()  # what runs beside it before it is asked to end ...
            try:
                self.request("shutdown", {}, timeout=5)
                deadline = time.monotonic() + SHUTDOWN_GRACE
                while self.proc.poll() is None and time.monotonic() < deadline:
                    _, now = self._besides_itself()
                    if main is not None and not reaper.still_running(main):
                        break  # it has ended: the scan may have caught its namespace going down
                    now_pids = {p.pid for p in now}
                    left = [p for p in left if p.pid in now_pids]  # ... and still ran the last time it was seen
                    time.sleep(0.05)
            except AdapterFault:
                pass
        self.kill()
        return left

    def _besides_itself(self):
        """(its main process, or None when that is the one started here; its other running processes
        but bwrap's). The main one is the first started below bwrap, or the one started here."""
        below = [p for p in reaper.descendants(self.proc.pid).values() if p.running]
        wrapped = [p for p in below if p.name not in WRAPPERS]
        self.wrappers = [p for p in below if p.name in WRAPPERS]
        main = None
        if os.path.basename(self.argv[0]) in WRAPPERS and wrapped:
            main = min(wrapped, key=lambda p: (p.start, p.pid))
        left = [p for p in wrapped if p is not main]
        for p in left:
            p.command  # read while it runs: a confined one is gone with its namespace
        return main, left


class ProtocolSession(Session):
    def __init__(self, process: ProtocolProcess, session: str):
        self.process = process
        self.session = session

    def tools(self):
        return self.process.request("tools", {"session": self.session})

    def call(self, tool, args, options=None):
        return self.process.request("call", {"session": self.session, "tool": tool, "args": args, **(options or {})})

    def needs_approval(self, tool, args):
        return self.process.request("needsApproval", {"session": self.session, "tool": tool, "args": args})

    def calls(self, calls):
        return self.process.request("calls", {"session": self.session, "calls": calls})

    def fs(self, method, args, options=None):
        return self.process.request("fs", {"session": self.session, "method": method, "args": args, **(options or {})})

    def workspace(self, method, args, options=None):
        return self.process.request("workspace", {"session": self.session, "method": method, "args": args,
                                                  **(options or {})})

    def retool(self):
        return self.process.request("retool", {"session": self.session})

    def hook_log(self):
        return self.process.request("hookLog", {"session": self.session})

    def agent(self, params):
        return self.process.request("agent", {"session": self.session, **params})

    def group(self, calls):
        return self.process.request("group", {"session": self.session, "calls": calls})

    def close(self):
        if self.process.alive():
            self.process.request("close", {"session": self.session})
            self.process.check_unasked()  # a log line after its last answer is this case's, not the next one's


class SubprocessAdapter(Adapter):
    """HOME and TMPDIR of the process point into the run folder, which the harness watches; where
    the kernel allows, it runs confined (isolation/confine.py): everything but the run folder
    read-only, the spec, expectations and results hidden, the harness's processes out of reach."""

    def __init__(self, argv: list[str], timeout: float = 30.0, max_line: int = DEFAULT_MAX_LINE,
                 confinement: Confinement | None = None):
        if not argv or not argv[0]:
            raise AdapterUnavailable("no command to run: an adapter `cmd:` needs a command line after the colon")
        self.timeout = timeout
        self.max_line = max_line
        self.confinement = confinement or default_confinement()
        # Before anything starts: what it starts before hello, or detaches, comes back to the harness.
        reaper.become_subreaper()
        self.mark = reaper.mark()
        run = str(run_dir())
        set_owner(self.confinement.owner)
        self.env = {**os.environ, "HOME": f"{run}/home", "TMPDIR": f"{run}/tmp", "TMP": f"{run}/tmp",
                    "TEMP": f"{run}/tmp"}
        self.argv = self.confinement.wrap(argv, run)
        self.process: ProtocolProcess | None = None
        try:
            self.hello = self._start()
        except AdapterUnavailable:
            raise
        except AdapterFault as exc:  # the first start: nothing can run, so the run ends here, once
            raise AdapterUnavailable(str(exc)) from None

    def _start(self) -> dict:
        self.process = ProtocolProcess(self.argv, self.timeout, self.max_line, self.env)
        hello = self.process.request("hello", {"protocol": PROTOCOL_VERSION}, timeout=max(self.timeout, 60))
        self.process.take_extras()
        problem = hello_problem(hello)
        if problem:
            self.process.kill()
            raise AdapterFault(problem)
        if hello["protocol"] != PROTOCOL_VERSION:
            self.process.kill()
            raise AdapterFault(f"adapter speaks protocol {hello['protocol']!r}; this harness speaks {PROTOCOL_VERSION}")
        # What runs once it has said hello is its own (bwrap's child, helpers), not a case's.
        self.process.own |= set(reaper.descendants(self.process.proc.pid))
        self.name = hello["implementation"]
        self.version = hello["version"]
        self.capabilities = expand(hello["capabilities"])  # local_paths: the four it became
        self.protocol_version = hello["protocol"]
        if hello.get("tools") is not None:
            self.tools = frozenset(tool_id(t) for t in hello["tools"])
        self.dependencies = dict(hello.get("dependencies") or {})
        self.runtime_dir = hello.get("runtimeDir")
        options = hello.get("filesystemOptions")
        self.filesystem_options = None if options is None else {
            k: True if v is True else tuple(v) for k, v in options.items()}
        return hello

    def own_pids(self) -> set[int]:
        return set(self.process.own) if self.process else set()

    def take_extras(self) -> list[dict]:
        return self.process.take_extras() if self.process else []

    def open(self, root, outside, home, workspace):
        if self.process is None or not self.process.alive():
            if self.process:
                self.process.kill()
            self._start()  # the previous case broke it: start fresh and go on
        result = self.process.request("open", {"root": root, "outside": outside, "home": home,
                                               "workspace": workspace})
        if "error" in result:
            raise OpenError(result["error"])
        return ProtocolSession(self.process, result["session"])

    def close(self):
        left = self.process.shutdown() if self.process else []
        # Every process it started, also before hello or detached, ends with it (not another
        # adapter's, still in use).
        killed = reaper.kill_since(self.mark, spare=LIVE)
        self.left_running = sorted({p.pid: str(p) for p in left + killed}.values())
