"""LocalSandbox (upstream `sandbox/local-sandbox.ts`, `mastra-sandbox.ts`): commands on this machine.

Every LocalSandbox has a process manager, so the tools always get the background-capable
execute_command. The sandbox starts lazily (the first command creates the working directory).
The environment is not inherited: a child gets PATH from the host, the `env` option and the
runtime overlay (`set_env`), nothing else.
"""
from __future__ import annotations

import os
import random
import string
import sys
import time

from ..js.strings import js_string
from .errors import IsolationUnavailableError, SandboxNotReadyError
from .local_process_manager import LocalProcessManager
from .native_sandbox import detect_isolation, is_isolation_available, wrap_command

_UNDEFINED = object()


def _expand_tilde(p: str) -> str:
    if p == "~" or p.startswith("~/"):
        return os.path.expanduser("~") + p[1:]
    return p


def _base36(n: int) -> str:
    digits = string.digits + string.ascii_lowercase
    out = ""
    while n:
        n, r = divmod(n, 36)
        out = digits[r] + out
    return out or "0"


class LocalSandbox:
    name = "LocalSandbox"
    provider = "local"

    def __init__(self, workingDirectory: str | None = None, env: dict | None = None, isolation: str | None = None,
                 nativeSandbox: dict | None = None, id: str | None = None, timeout: float | None = None,
                 instructions=None, **_ignored):
        requested = isolation if isolation is not None else "none"
        if requested == "seatbelt" and sys.platform == "win32":
            raise IsolationUnavailableError("seatbelt", "Seatbelt isolation is only supported on macOS, not Windows.")
        if requested != "none" and not is_isolation_available(requested):
            raise IsolationUnavailableError(requested, detect_isolation()["message"])
        self.id = id or f"local-sandbox-{_base36(int(time.time() * 1000))}-" + "".join(
            random.choices(string.ascii_lowercase + string.digits, k=6))
        self.status = "pending"
        self.isolation = requested
        self.working_directory = _expand_tilde(
            workingDirectory if workingDirectory is not None else os.path.join(os.getcwd(), ".sandbox"))
        self.env = dict(env or {})           # LocalSandbox's own copy (buildEnv)
        self._overlay = dict(env or {})      # MastraSandbox's runtime overlay (setEnv / getEnv)
        native = dict(nativeSandbox or {})
        native["readWritePaths"] = list(native.get("readWritePaths") or [])
        native["readOnlyPaths"] = list(native.get("readOnlyPaths") or [])
        self.native_config = native
        self.timeout = timeout               # documented, never read (as upstream)
        self.instructions = instructions
        self.processes = LocalProcessManager(self)

    # -- environment ---------------------------------------------------------------------------

    def set_env(self, update) -> None:
        self._overlay = dict(update(dict(self._overlay)))

    def get_env(self) -> dict:
        return dict(self._overlay)

    def build_env(self, additional: dict | None = None) -> dict:
        merged = {"PATH": os.environ.get("PATH", _UNDEFINED), **self.env, **(additional or {})}
        # Node drops undefined values and prints the rest with `${value}` (null as "null")
        return {k: js_string(v) for k, v in merged.items() if v is not _UNDEFINED}

    def wrap_command_for_isolation(self, command: str):
        if self.isolation == "none":
            return None
        return wrap_command(command, self.isolation, self.working_directory, self.native_config)

    # -- lifecycle -----------------------------------------------------------------------------

    def start(self) -> None:
        if self.status == "running":
            return
        if self.status == "destroyed":
            raise Exception("Cannot start a destroyed sandbox")
        self.status = "starting"
        try:
            os.makedirs(self.working_directory, exist_ok=True)
        except Exception:
            self.status = "error"
            raise
        self.status = "running"

    def ensure_running(self) -> None:
        if self.status == "destroyed":
            raise SandboxNotReadyError(self.id)
        if self.status in ("destroying", "stopping"):
            return
        if self.status != "running":
            self.start()
        if self.status != "running":
            raise SandboxNotReadyError(self.id)

    def stop(self) -> None:
        if self.status == "stopped":
            return
        self.status = "stopping"
        self.processes.kill_all()
        self.status = "stopped"

    def destroy(self) -> None:
        if self.status == "destroyed":
            return
        if self.status == "pending":
            self.status = "destroyed"
            return
        self.status = "destroying"
        self.processes.kill_all()
        self.status = "destroyed"

    # -- commands ------------------------------------------------------------------------------

    def execute_command(self, command: str, timeout_ms: float | None = None, cwd: str | None = None,
                        on_stdout=None, on_stderr=None, abort_signal=None) -> dict:
        """Spawn, wait, forget (the default executeCommand of a sandbox with a process manager).
        on_stdout/on_stderr get each chunk of output as it arrives."""
        handle = self.processes.spawn(command, cwd=cwd, timeout_ms=timeout_ms, max_retained=float("inf"),
                                      on_stdout=(lambda data, pid: on_stdout(data)) if on_stdout else None,
                                      on_stderr=(lambda data, pid: on_stderr(data)) if on_stderr else None,
                                      abort_signal=abort_signal)
        try:
            result = handle.wait()
            return {**result, "command": command}
        finally:
            self.processes.release(handle.pid)

    def get_instructions(self, opts: dict | None = None) -> str:
        if isinstance(self.instructions, str):
            return self.instructions
        default = f'Local command execution. Working directory: "{self.working_directory}".'
        if callable(self.instructions):
            return self.instructions({"defaultInstructions": default,
                                      "requestContext": (opts or {}).get("requestContext")})
        return default
