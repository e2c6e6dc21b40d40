"""The protocol ops a case's steps use (spec/protocol.md), and the promise a first port rests on:
a port of the filesystem tools answers six ops, and every case it can be given uses only those.

A case needing only FILE_CAPABILITIES (how files behave: what a simple local port declares,
spec/first-port.md) uses only CORE_OPS; a step that needs another op (`workspace`, `retool`,
`hookLog` ...) makes its case need the capability that brings that op. `wsconf lint` holds the
cases to it, so a port answering the six ops never meets an op it was not told about.
"""
from __future__ import annotations

CORE_OPS = ("hello", "open", "tools", "call", "close", "shutdown")
FILE_CAPABILITIES = ("filesystem", "absolute_paths", "containment", "host_paths", "local_identity", "symlinks", "file_modes", "empty_dirs", "tilde_home", "media",
                     "read_only", "allowed_paths", "posix_errors", "nonroot")

# a step's kind -> the op it sends (host and the file conditions of a wait send none)
STEP_OPS = {"tool": "call", "list_tools": "tools", "tool_info": "tools", "fs": "fs", "workspace": "workspace",
            "retool": "retool", "hook_log": "hookLog", "agent": "agent", "group": "group", "concurrent": "calls",
            "needs_approval": "needsApproval"}
_WAIT_CALL_OPS = {"tool": "call", "workspace": "workspace", "hook_log": "hookLog"}


def step_ops(step: dict) -> set[str]:
    ops = {op for kind, op in STEP_OPS.items() if kind in step}
    call = ((step.get("wait") or {}).get("until") or {}).get("call") or {}
    return ops | {op for kind, op in _WAIT_CALL_OPS.items() if kind in call}


def ops_beyond_core(raw_case: dict) -> list[str]:
    """The ops other than CORE_OPS that the case's steps send."""
    return sorted({op for step in raw_case.get("steps") or [] for op in step_ops(step)} - set(CORE_OPS))
