"""`python -m wsref.server`: the reference implementation speaking spec/protocol.md on stdin/stdout."""
from __future__ import annotations

import itertools
import json
import sys
import traceback

from . import protocol
from .wire import to_json


def _session_op(session, op: str, params: dict):
    """An op on an open session (run in its process cwd, capability process_cwd)."""
    if op in ("call", "fs", "workspace") and params.get("errorDetails") is True:  # capability error_details
        rest = {k: v for k, v in params.items() if k != "errorDetails"}
        return protocol.with_error_details(True, lambda: _session_op(session, op, rest))
    if op == "call":
        return session.call(params["tool"], params.get("args", {}), writer=params.get("writer") is True,
                            agentContext=params.get("agentContext") is not False,
                            requestContext=params.get("requestContext"), abortAfterMs=params.get("abortAfterMs"),
                            tracing=params.get("tracing"))
    if op == "needsApproval":
        return session.needs_approval(params["tool"], params.get("args") or {})
    if op == "calls":
        return session.calls(params["calls"])
    if op == "fs":
        return session.fs(params["method"], params.get("args") or [])
    if op == "workspace":
        return session.workspace_call(params["method"], params.get("args") or [],
                                      identity=params.get("identity") is True)
    if op == "retool":
        return session.retool()
    if op == "agent":
        return session.agent({k: v for k, v in params.items() if k != "session"})
    if op == "group":
        return session.group(params["calls"])
    if op == "hookLog":
        return to_json(session.hook_log)
    raise LookupError(f"unknown op {op!r}")


def serve(stdin=sys.stdin, stdout=sys.stdout) -> None:
    sessions: dict[str, protocol.Session] = {}
    ids = itertools.count(1)

    def handle(op: str, params: dict):
        if op == "hello":
            return protocol.hello()
        if op == "open":
            opened = protocol.open_session(params["root"], params.get("home") or params["root"],
                                           params.get("workspace") or {})
            if isinstance(opened, dict):
                return {"error": opened}
            sid = f"s{next(ids)}"
            sessions[sid] = opened
            return {"session": sid}
        if op == "shutdown":
            return None
        session = sessions.get(params.get("session"))
        if session is None:
            raise LookupError(f"no open session {params.get('session')!r}")
        if op == "tools":
            return session.tools()
        if op == "close":
            sessions.pop(params["session"]).close()
            return None
        return session.in_process_env(_session_op, session, op, params)

    for line in stdin:
        try:
            request = json.loads(line)
        except json.JSONDecodeError:
            reply = {"id": None, "ok": False, "fault": "request is not JSON"}
        else:
            try:
                reply = {"id": request.get("id"), "ok": True, "result": handle(request.get("op"), request.get("params") or {})}
            except Exception as exc:
                traceback.print_exc(file=sys.stderr)
                reply = {"id": request.get("id"), "ok": False, "fault": f"{type(exc).__name__}: {exc}"}
        stdout.write(json.dumps(reply) + "\n")  # ASCII: lone surrogates survive
        stdout.flush()
        if isinstance(request, dict) and request.get("op") == "shutdown":
            break

