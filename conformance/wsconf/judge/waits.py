"""`wait` steps: poll for a condition until a deadline instead of sleeping a fixed time.

A wait never fails by itself: at the deadline it simply ends, and the steps after it (and its own
`after`) judge, exactly as after a fixed sleep of that length. So a condition can only make a case
faster, never weaker. `no_process` and `exited` look at this machine's processes, which only
means something for an adapter declaring `host_processes`; for any other adapter they never hold
and the wait lasts its whole timeout.
"""
from __future__ import annotations

import os
import time

from ..isolation.tree import content_bytes

POLL_S = 0.01
CALL_POLL_S = 0.02
# After the implementation has reaped a process, the moment it records the exit (the reference's
# watcher thread, Node's 'close' event) may come a little later.
EXIT_GRACE_S = 0.05


def run_wait(wait: dict, session, tree, capabilities, judge) -> None:
    """Poll wait["until"] until it holds or wait["timeout_ms"] has passed."""
    deadline = time.monotonic() + wait["timeout_ms"] / 1000
    holds, pause = _condition(wait["until"], session, tree, "host_processes" in capabilities, judge)
    while time.monotonic() < deadline:
        if holds():
            return
        time.sleep(min(pause, max(0.0, deadline - time.monotonic())))


def _condition(until: dict, session, tree, host_processes: bool, judge):
    (kind, arg), = until.items()
    if kind == "files":
        return (lambda: all(_holds(tree.root / rel, content_bytes(want)) for rel, want in arg.items())), POLL_S
    if kind == "call":
        def answered():
            return judge(arg["expect"], _call(arg, session), tree) is None
        return answered, CALL_POLL_S
    if not host_processes:
        return (lambda: False), POLL_S
    base = os.path.realpath(tree.base)
    if kind == "no_process":
        return (lambda: not processes_under(base)), POLL_S
    if kind == "exited":
        def reaped():
            if os.path.exists(f"/proc/{int(arg)}"):  # running, or a zombie not yet reaped
                return False
            time.sleep(EXIT_GRACE_S)
            return True
        return reaped, POLL_S
    raise ValueError(f"unknown wait condition {kind!r}")


def _call(arg: dict, session) -> dict:
    """The result of the polled call: a tool's, a workspace method's (`sandbox.processes.list`),
    or the hook log, each as the step of that form would get it."""
    if "tool" in arg:
        return session.call(arg["tool"], arg.get("args", {}))
    if "workspace" in arg:
        return session.workspace(arg["workspace"], arg.get("args", []))
    return {"kind": "value", "value": session.hook_log(), "model": None}


def _holds(path, want: bytes) -> bool:
    try:
        return path.read_bytes() == want
    except OSError:
        return False


def processes_under(folder: str) -> list[int]:
    """Live processes whose working directory is inside folder (a zombie has none: it is dead)."""
    found = []
    prefix = folder.rstrip("/") + "/"
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{name}/cwd")
        except OSError:
            continue
        if cwd == folder or cwd.startswith(prefix):
            found.append(int(name))
    return found
