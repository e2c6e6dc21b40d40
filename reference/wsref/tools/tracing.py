"""Workspace tracing (upstream `tools/tracing.ts`): the WORKSPACE_ACTION child span each tool wraps its
operation in, started from the parent span the call's context carries (`tracing.currentSpan`, else
`tracingContext.currentSpan`). Without one every handle is a no-op, so tools trace unconditionally.
In wsref the file tools start spans (read, write, edit, delete, mkdir, stat, list, grep); the sandbox,
search and skill tools' spans (startSkillSpan) are not ported."""
from __future__ import annotations

import re

from ..js.strings import utf16_key

WORKSPACE_ACTION = "workspace_action"

_ENV_FIELD_NAMES = {"env", "environment", "process_env"}
_SECRET_FIELD = re.compile(r"(^|[_-])(api[_-]?key|key|token|secret|password|passwd|pwd|credential|credentials|auth|"
                           r"authorization|cookie|session)([_-]|$)", re.IGNORECASE)
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")


def _normalize_field_name(key: str) -> str:
    return _CAMEL.sub(r"\1_\2", key).lower()


def sanitize_trace_data(value, seen: set | None = None):
    """sanitizeWorkspaceTraceData: env-shaped fields become {redacted, keys}, secret-looking keys
    '[redacted]', a cycle '[redacted:circular]'; everything else as it is."""
    seen = set() if seen is None else seen
    if isinstance(value, (list, dict)):
        if id(value) in seen:
            return "[redacted:circular]"
        seen.add(id(value))
        try:
            if isinstance(value, list):
                return [sanitize_trace_data(item, seen) for item in value]
            out = {}
            for key, entry in value.items():
                normalized = _normalize_field_name(key)
                if normalized in _ENV_FIELD_NAMES:
                    # Object.keys(value).sort(): string keys in UTF-16 order ("10" before "2")
                    keys = sorted(entry, key=utf16_key) if isinstance(entry, dict) else (
                        sorted((str(i) for i in range(len(entry))), key=utf16_key) if isinstance(entry, list)
                        else None)
                    out[key] = {"redacted": True, "keys": keys}
                elif _SECRET_FIELD.search(normalized):
                    out[key] = "[redacted]"
                else:
                    out[key] = sanitize_trace_data(entry, seen)
            return out
        finally:
            seen.discard(id(value))
    return value


class SpanHandle:
    """end(attrs, output) / error(err, attrs) on the child span, or nothing when there is none."""

    def __init__(self, span=None):
        self.span = span

    def end(self, attrs: dict | None = None, output=None) -> None:
        if self.span is not None:
            self.span.end({"output": sanitize_trace_data(output), "attributes": dict(attrs or {})})

    def error(self, err, attrs: dict | None = None) -> None:
        if self.span is not None:
            error = err if isinstance(err, BaseException) else Exception(str(err))
            self.span.error({"error": error, "attributes": {"success": False, **(attrs or {})}})


def current_span(ctx):
    for field in ("tracing", "tracingContext"):
        holder = ctx.extra.get(field) if ctx is not None else None
        span = holder.get("currentSpan") if isinstance(holder, dict) else None
        if span is not None:
            return span
    return None


def start_workspace_span(ctx, workspace, category: str, operation: str, input=None,
                         attributes: dict | None = None) -> SpanHandle:
    """startWorkspaceSpan: a child span named workspace:<category>:<operation>, its attributes the
    category, the workspace's id and name, then the given ones."""
    parent = current_span(ctx)
    if parent is None:
        return SpanHandle()
    return SpanHandle(parent.create_child_span({
        "type": WORKSPACE_ACTION,
        "name": f"workspace:{category}:{operation}",
        "input": sanitize_trace_data(input),
        "attributes": {"category": category, "workspaceId": getattr(workspace, "id", None),
                       "workspaceName": getattr(workspace, "name", None), **(attributes or {})},
    }))
