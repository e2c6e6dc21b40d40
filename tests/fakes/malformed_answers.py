"""Answers in the wrong shape, each where the harness once raised and lost the case: the call
reading bad.txt gets the answer argv[1] names: `null` (result: null), `string` (a string where a
Result belongs), `no_kind` ({"value": ...}), `no_result` (ok without result), `open` (the open of
the case after it answers without `session`)."""
import sys

from protocol_fake import serve

SHAPE = sys.argv[1]


def call(params, session):
    if params["args"].get("path") != "bad.txt":
        return None
    if SHAPE == "null":
        return {"ok": True, "result": None}
    if SHAPE == "string":
        return {"ok": True, "result": "fine"}
    if SHAPE == "no_kind":
        return {"ok": True, "result": {"value": "fine"}}
    if SHAPE == "no_result":
        return {"ok": True}
    return None


def opened(session, n):
    return {"id": session["id"]} if SHAPE == "open" and n == 2 else None  # the second case's open: no session


serve(call, opened=opened)
