"""The loop the fake implementations share (one file each in tests/fakes/, one misbehaviour each):
it speaks spec/protocol.md and answers every tool call "fine", except where the fake's own
function says otherwise. A fake is run as `python tests/fakes/<fake>.py [args]`.

    serve(call=None, hello=None, close=None, shutdown=None, before_hello=None)

call(params, session) -> a Result, None (answer "fine"), or the whole response line as a dict
(with "id" left for the loop to fill). `session` is {"root", "outside", "id"} of the open session.
hello(hello) -> the hello result to send; opened(session, n) -> another answer to the n-th open, or
None. close(session) and shutdown() run before answering; before_hello() when it starts."""
from __future__ import annotations

import json
import os
import sys

FINE = {"kind": "text", "value": "fine", "model": None}
MARK = os.environ.get("WSCONF_FAKE_MARK", "wsconf-fake")  # on the command line of every process a fake starts


def send(obj) -> None:
    sys.stdout.buffer.write(json.dumps(obj).encode() + b"\n")
    sys.stdout.buffer.flush()


def sleeper_argv(seconds: int = 300) -> list[str]:
    """A process that stays, findable by the test through MARK on its command line."""
    return [sys.executable, "-c", "import sys, time; time.sleep(int(sys.argv[1]))", str(seconds), MARK]


def serve(call=None, hello=None, close=None, shutdown=None, before_hello=None, opened=None,
          name: str | None = None) -> None:
    sessions: dict[str, dict] = {}
    opens = 0
    if before_hello:
        before_hello()
    for raw in sys.stdin.buffer:
        req = json.loads(raw)
        op, rid, params = req["op"], req["id"], req.get("params", {})
        response = {"ok": True, "result": None}
        if op == "hello":
            said = {"protocol": 1, "implementation": name or os.path.basename(sys.argv[0]).removesuffix(".py"),
                    "version": "0", "capabilities": ["filesystem"]}
            response["result"] = hello(said) if hello else said
        elif op == "open":
            opens += 1
            sid = f"s{opens}"
            sessions[sid] = {"root": params["root"], "outside": params["outside"], "id": sid}
            response["result"] = (opened(sessions[sid], opens) if opened else None) or {"session": sid}
        elif op == "tools":
            response["result"] = []
        elif op == "call":
            answer = call(params, sessions[params["session"]]) if call else None
            if isinstance(answer, dict) and "kind" not in answer:
                response = answer   # the whole response line, as the fake wants it
            else:
                response["result"] = answer or FINE
        elif op == "close":
            session = sessions.pop(params["session"])
            if close:
                close(session)
        elif op == "shutdown" and shutdown:
            shutdown()
        send({"id": rid, **response})
        if op == "shutdown":
            break
