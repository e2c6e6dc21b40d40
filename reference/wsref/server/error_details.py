"""Capability error_details (spec/protocol.md): what an error is beyond message, code and name, as the
upstream's error object shows it: the class names along its prototype chain (up to Error), and its own
enumerable fields other than name, message, stack and code."""
from __future__ import annotations

from ..errors import FilesystemError, WorkspaceError, js_name

# The JS fields each wsref error class carries, in the order the upstream constructor assigns them.
_FIELDS = ("workspaceId", "path", "operation", "expectedMtime", "actualMtime", "errno", "syscall", "dest")


def error_classes(exc: BaseException) -> list[str]:
    if isinstance(exc, (WorkspaceError, FilesystemError)):
        names = []
        for cls in type(exc).__mro__:
            names.append(cls.__dict__.get("js_name") or cls.__name__)
            if cls in (WorkspaceError, FilesystemError):
                break
        return names + ["Error"]
    name = js_name(exc)
    return [name] if name == "Error" else [name, "Error"]


def error_details(exc: BaseException) -> dict:
    fields = {k: getattr(exc, k) for k in _FIELDS if getattr(exc, k, None) is not None}
    return {"classes": error_classes(exc), "fields": fields}
