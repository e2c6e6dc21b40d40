"""wrapCommand (upstream `sandbox/native-sandbox/wrapper.ts`): a command wrapped for its isolation backend.

seatbelt is macOS only; this reference runs on Linux, where the sandbox refuses it before this.
"""
from __future__ import annotations

from .bubblewrap import build_bwrap_command


def wrap_command(command: str, backend: str, workspace_path: str, config: dict) -> list[str] | None:
    """The argv that runs `command` under the backend, or None for 'none' (a plain /bin/sh -c)."""
    if backend == "bwrap":
        return build_bwrap_command(command, workspace_path, config)
    if backend == "seatbelt":  # never reached on Linux: the constructor refuses it
        raise NotImplementedError("seatbelt isolation is macOS only")
    return None
