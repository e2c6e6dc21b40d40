"""On the call reading bad.txt, looks for the harness (a process whose command line holds pytest,
up its parents) and sends it argv[1] (STOP, TERM or KILL): SIGSTOP would freeze the run for good,
SIGTERM would read as a user's interrupt. With argv[2] "parent" it signals its parent instead (an
xdist worker, when it runs unconfined). It answers with what it found and did."""
import os
import signal
import sys

from protocol_fake import serve

SIGNAL = getattr(signal, f"SIG{sys.argv[1]}")
PARENT = sys.argv[2:] == ["parent"]


def harness():
    pid = os.getppid()
    while pid > 1:
        try:
            if b"pytest" in open(f"/proc/{pid}/cmdline", "rb").read():
                return pid
            pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return None


def call(params, session):
    if params["args"].get("path") != "bad.txt":
        return None
    if PARENT:
        os.kill(os.getppid(), SIGNAL)
        return {"kind": "text", "value": f"signalled its parent (pid {os.getppid()})", "model": None}
    pid = harness()
    if pid is None:
        return {"kind": "text", "value": "found no harness to signal", "model": None}
    os.kill(pid, SIGNAL)
    return {"kind": "text", "value": f"signalled the harness (pid {pid})", "model": None}


serve(call)
