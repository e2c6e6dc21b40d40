"""Workspace tracing spans (upstream `tools/tracing.ts`): a child span of the call's current span.

Without a current span in the tool's context, nothing is traced. The span's input and output are
sanitised: env-like fields become {redacted, keys}, secret-like ones "[redacted]". Used by read_file;
the other tools' spans are not ported.
"""
from __future__ import annotations

import re

WORKSPACE_ACTION = "workspace_action"
_ENV_FIELDS = {"env", "environment", "process_env"}
_SECRET = re.compile(r"(^|[_-])(api[_-]?key|key|token|secret|password|passwd|pwd|credential|credentials|auth|"
                     r"authorization|cookie|session)([_-]|$)", re.I)


def _field_name(key: str) -> str:
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", key).lower()


def sanitize(value, seen=None):
    seen = set() if seen is None else seen
    if isinstance(value, list):
        if id(value) in seen:
            return "[redacted:circular]"
        seen.add(id(value))
        try:
            return [sanitize(v, seen) for v in value]
        finally:
            seen.discard(id(value))
    if not isinstance(value, dict):
        return value
    if id(value) in seen:
        return "[redacted:circular]"
    seen.add(id(value))
    try:
        out = {}
        for key, entry in value.items():
            name = _field_name(key)
            if name in _ENV_FIELDS:
                keys = sorted(entry) if isinstance(entry, dict) else [str(i) for i in range(len(entry))] \
                    if isinstance(entry, list) else None
                out[key] = {"redacted": True, "keys": keys}
            elif _SECRET.search(name):
                out[key] = "[redacted]"
            else:
                out[key] = sanitize(entry, seen)
        return out
    finally:
        seen.discard(id(value))


class _Handle:
    def __init__(self, span):
        self.span = span

    def end(self, attributes=None, output=None):
        if self.span is not None:
            self.span.end({"output": sanitize(output), "attributes": dict(attributes or {})})

    def error(self, err, attributes=None):
        if self.span is not None:
            self.span.error({"error": err, "attributes": {"success": False, **(attributes or {})}})


def start_workspace_span(ctx, workspace, category: str, operation: str, input=None, attributes=None) -> _Handle:
    current = ctx.extra.get("currentSpan") if ctx is not None else None
    if current is None:
        return _Handle(None)
    return _Handle(current.create_child_span({
        "type": WORKSPACE_ACTION, "name": f"workspace:{category}:{operation}", "input": sanitize(input),
        "attributes": {"category": category, "workspaceId": getattr(workspace, "id", None),
                       "workspaceName": getattr(workspace, "name", None), **(attributes or {})}}))
