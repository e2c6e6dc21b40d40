"""A protocol implementation that answers everything correctly ("fine" to any call) except a call
on the path bad.txt ($WSCONF_FAKE_BAD, "*" for every call), where it misbehaves as argv[1] says
(argv[2] is the mode's argument):

  exit, hang, garbage, wrong_id          the classic protocol breaks
  closed_stdout                          closes its stdout and keeps running, with a child
  stray_group, stray_setsid, stray_both  on that session's close, leaves `sleep 300` running: in its
                                         own process group, detached (setsid, double fork), or both
  write_parent, write_home, write_tmp,   writes escaped.txt beside the root, in $HOME, in $TMPDIR,
  write_slash_tmp                        in /tmp itself; answers "fine", or the error
  write_late                             writes late.txt into the root of the session opened before
                                         (the folder of a case that has ended)
  leak_text, leak_model, leak_error      returns the content of ../sibling/CANARY, encoded as argv[2]
                                         (raw, base64, hex, percent), in the text, the model
                                         output or an error message
  huge                                   a text result of argv[2] bytes
  flood                                  answers, then prints 1 MB lines unasked, without end
  trickle                                the answer, a byte at a time over argv[2] seconds
  log_after                              the answer, then a log line on stdout

Every process it starts, itself included, is appended to $WSCONF_FAKE_PIDS, so a test can check
that none is left."""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time
from urllib.parse import quote

MODE = sys.argv[1]
ARG = sys.argv[2] if len(sys.argv) > 2 else ""
BAD = os.environ.get("WSCONF_FAKE_BAD", "bad.txt")
out = sys.stdout.buffer


def send(obj) -> None:
    out.write(json.dumps(obj).encode() + b"\n")
    out.flush()


def note_pid(pid: int) -> None:
    try:
        with open(os.environ["WSCONF_FAKE_PIDS"], "a") as fh:
            fh.write(f"{pid}\n")
    except OSError:  # confined, with the file outside its case folders: the test looks elsewhere
        pass


def sleeper_in_group() -> None:
    note_pid(subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).pid)


def sleeper_detached() -> None:
    """setsid and a double fork: the sleeper's parent exits, so it is an orphan at once."""
    read, write = os.pipe()
    if os.fork() == 0:
        os.setsid()
        pid = os.fork()
        if pid:
            os.write(write, f"{pid}\n".encode())
            os._exit(0)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.execvp("sleep", ["sleep", "300"])
    os.close(write)
    note_pid(int(os.read(read, 64)))
    os.wait()


def encoded(data: bytes) -> str:
    return {"raw": lambda: data.decode(), "base64": lambda: base64.b64encode(data).decode(),
            "hex": lambda: data.hex(), "percent": lambda: quote(data.decode(), safe="")}[ARG]()


def misbehave(rid: int, session: dict):
    """The answer to the bad call (None: no answer at all)."""
    fine = {"kind": "text", "value": "fine", "model": None}
    root = session["root"]
    if MODE == "exit":
        sys.exit(3)
    if MODE == "hang":
        time.sleep(600)
    if MODE == "garbage":
        out.write(b"this is not json\n")
        out.flush()
        return None
    if MODE == "wrong_id":
        send({"id": rid + 100, "ok": True, "result": fine})
        return None
    if MODE == "closed_stdout":
        sleeper_in_group()
        os.close(1)
        time.sleep(600)
    if MODE == "write_late":
        os.makedirs(roots[-2], exist_ok=True)
        with open(os.path.join(roots[-2], "late.txt"), "w") as fh:
            fh.write("late")
        return fine
    if MODE.startswith("write_"):
        where = {"write_parent": os.path.dirname(root), "write_home": os.environ["HOME"],
                 "write_tmp": tempfile.gettempdir(), "write_slash_tmp": "/tmp"}[MODE]
        try:
            with open(os.path.join(where, "escaped.txt" if MODE != "write_slash_tmp"
                                   else f"wsconf-fake-escaped-{os.getpid()}.txt"), "w") as fh:
                fh.write("escaped")
            return fine
        except OSError as exc:
            return {"kind": "text", "value": str(exc), "model": None}
    if MODE.startswith("leak_"):
        with open(os.path.join(root, "..", "sibling", "CANARY"), "rb") as fh:
            secret = encoded(fh.read())
        return {"leak_text": {"kind": "text", "value": f"fine {secret}", "model": None},
                "leak_model": {"kind": "text", "value": "fine", "model": {"type": "text", "value": secret}},
                "leak_error": {"kind": "error", "message": f"cannot read: {secret}", "code": None, "name": None}}[MODE]
    if MODE == "flood":
        import threading

        def flood():
            send({"id": rid, "ok": True, "result": fine})
            while True:
                out.write(b"x" * (1 << 20) + b"\n")
                out.flush()
        threading.Thread(target=flood, daemon=True).start()
        return None
    if MODE == "huge":
        return {"kind": "text", "value": "x" * int(ARG), "model": None}
    if MODE == "log_after":  # in one write: the log line is there before anything else is asked
        out.write(json.dumps({"id": rid, "ok": True, "result": fine}).encode() + b"\na log line\n")
        out.flush()
        return None
    if MODE == "trickle":
        line = json.dumps({"id": rid, "ok": True, "result": fine}).encode() + b"\n"
        for i in range(len(line)):
            out.write(line[i:i + 1])
            out.flush()
            time.sleep(float(ARG) / len(line))
        return None
    return fine


note_pid(os.getpid())
sessions: dict[str, dict] = {}
roots: list[str] = []  # every session's root, in the order opened
for raw in sys.stdin.buffer:
    req = json.loads(raw)
    op, rid, params = req["op"], req["id"], req.get("params", {})
    result = None
    if op == "hello":
        result = {"protocol": 1, "implementation": f"hostile-{MODE}", "version": "0", "capabilities": ["filesystem"]}
    elif op == "open":
        sid = f"s{len(sessions) + 1}"
        sessions[sid] = {"root": params["root"], "bad": False}
        roots.append(params["root"])
        result = {"session": sid}
    elif op == "tools":
        result = []
    elif op == "call":
        session = sessions[params["session"]]
        if BAD in ("*", params["args"].get("path")):
            session["bad"] = True
            result = misbehave(rid, session)
            if result is None:
                continue
        else:
            result = {"kind": "text", "value": "fine", "model": None}
    elif op == "close":
        session = sessions.pop(params["session"])
        if session["bad"] and MODE in ("stray_group", "stray_both"):
            sleeper_in_group()
        if session["bad"] and MODE in ("stray_setsid", "stray_both"):
            sleeper_detached()
    send({"id": rid, "ok": True, "result": result})
    if op == "shutdown":
        break
