"""LocalSandbox (upstream `sandbox/local-sandbox.ts`, `mastra-sandbox.ts`): commands on this machine.

Every LocalSandbox has a process manager, so the tools always get the background-capable
execute_command. The sandbox starts lazily (the first command creates the working directory).
The environment is not inherited: a child gets PATH from the host, the `env` option and the
runtime overlay (`set_env`), nothing else.
"""
from __future__ import annotations

import datetime
import math
import os
import platform
import sys

from ..js.errors import JsError, NodeSystemError
from ..js.strings import js_string, time_random_id
from .errors import IsolationUnavailableError, SandboxNotReadyError
from .local_process_manager import LocalProcessManager
from .local_mounts import mount, unmount, unmount_all
from .mount_manager import MountManager
from .native_sandbox import detect_isolation, is_isolation_available, wrap_command
from .utils import shell_quote

_UNDEFINED = object()


def _expand_tilde(p: str) -> str:
    if p == "~" or p.startswith("~/"):
        return os.path.expanduser("~") + p[1:]
    return p



def _chunk_callback(fn):
    """executeCommand's onStdout/onStderr get the chunk only (the handle's listeners drop the pid)."""
    return None if fn is None else (lambda data, _pid: fn(data))


class LocalSandbox:
    name = "LocalSandbox"
    provider = "local"

    def __init__(self, workingDirectory: str | None = None, env: dict | None = None, isolation: str | None = None,
                 nativeSandbox: dict | None = None, id: str | None = None, timeout: float | None = None,
                 instructions=None, onStart=None, onStop=None, onDestroy=None, **_ignored):
        requested = isolation if isolation is not None else "none"
        if requested == "seatbelt" and sys.platform == "win32":
            raise IsolationUnavailableError("seatbelt", "Seatbelt isolation is only supported on macOS, not Windows.")
        if requested != "none" and not is_isolation_available(requested):
            raise IsolationUnavailableError(requested, detect_isolation()["message"])
        self.id = id or time_random_id("local-sandbox")
        self.status = "pending"
        self.logger = None  # MastraBase's logger, set by __setLogger (the workspace passes its own on)
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
        self._on_start, self._on_stop, self._on_destroy = onStart, onStop, onDestroy  # MastraSandbox's hooks
        self._created_at = datetime.datetime.now(datetime.timezone.utc)
        self.processes = LocalProcessManager(self)
        # executeCommand holds on to its manager (upstream's closure over `pm`), even when `processes` is taken away.
        self._pm = self.processes
        # MastraSandbox makes a MountManager for a sandbox that can mount (local_mounts.py).
        self.mounts = MountManager(mount=self.mount)
        self._active_mount_paths: dict[str, None] = {}  # an ordered set
        self._initial_read_write_paths = set(native["readWritePaths"])
        self._mount_isolation_ref_count: dict[str, int] = {}
        self._mount_path_to_isolation_path: dict[str, str] = {}

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

    def start(self) -> dict:
        """`_start` with LocalSandbox's acquisition: an existing working directory is found
        (`connected`), a missing one is created (`created`); then the onStart hook, whose failure is
        fatal. Nothing latches: a failed start can be retried."""
        if self.status == "running":
            return {"outcome": "connected"}
        if self.status == "destroyed":
            raise Exception("Cannot start a destroyed sandbox")
        self.status = "starting"
        try:
            outcome = "connected" if self._find() else "created"
            # _prepareWorkspace, both branches
            self._debug("Starting sandbox", workingDirectory=self.working_directory, isolation=self.isolation)
            os.makedirs(self.working_directory, exist_ok=True)
            self._debug("Sandbox started", workingDirectory=self.working_directory)
        except Exception:
            self.status = "error"
            raise
        self.status = "running"  # before the hook: a hook may run commands
        if self._on_start is not None:
            try:
                self._on_start({"sandbox": self, "outcome": outcome})
            except Exception as exc:
                self.status = "error"
                message = getattr(exc, "message", None) or str(exc)
                raise JsError(f"Sandbox '{self.id}' onStart hook failed: {message}") from exc
        try:
            self.mounts.process_pending()  # failures stay on their entries, not on the sandbox
        except Exception:
            pass
        return {"outcome": outcome}

    def set_on_start(self, update) -> None:
        """MastraSandbox.setOnStart: the updater gets the current hook (or None) and returns the next
        one, so an attach composes instead of clobbering; it applies from the next start on."""
        self._on_start = update(self._on_start)

    def _find(self) -> bool:
        """`find()`: the working directory exists; ENOENT means none; any other stat error throws."""
        try:
            os.stat(self.working_directory)
            return True
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise NodeSystemError.from_oserror(exc, "stat", self.working_directory) from None

    def is_ready(self) -> bool:
        """`isReady()` (deprecated upstream): status is running."""
        return self.status == "running"

    def get_info(self) -> dict:
        metadata = {"workingDirectory": self.working_directory, "platform": sys.platform,
                    # process.version upstream: the version of the runtime running the sandbox
                    "nodeVersion": "v" + platform.python_version(), "isolation": self.isolation}
        if self.isolation != "none":
            metadata["isolationConfig"] = {"allowNetwork": self.native_config.get("allowNetwork", False),
                                           "readOnlyPaths": self.native_config["readOnlyPaths"],
                                           "readWritePaths": self.native_config["readWritePaths"]}
        return {"id": self.id, "name": self.name, "provider": self.provider, "status": self.status,
                "createdAt": self._created_at,
                # Math.round(os.totalmem() / 1024 / 1024): half up, where Python's round() is half even
                "resources": {"memoryMB": math.floor(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1048576 + 0.5),
                              "cpuCores": os.cpu_count()},
                "metadata": metadata}

    def ensure_running(self) -> None:
        if self.status == "destroyed":
            raise SandboxNotReadyError(self.id)
        if self.status in ("destroying", "stopping"):
            return
        if self.status != "running":
            self.start()
        if self.status != "running":
            raise SandboxNotReadyError(self.id)

    def stop_hook(self) -> None:
        """LocalSandbox.stop(), the provider's own hook (the public `stop` upstream): kill the background
        processes and unmount (best-effort); no status change and no onStop (those are MastraSandbox._stop,
        which stop() here is)."""
        self._debug("Stopping sandbox", workingDirectory=self.working_directory)
        self._pm.kill_all()
        unmount_all(self)  # best-effort

    def destroy_hook(self) -> None:
        """LocalSandbox.destroy(), the provider's own hook: kill the background processes, unmount and
        forget the mounts; no status change."""
        self._debug("Destroying sandbox", workingDirectory=self.working_directory)
        self._pm.kill_all()
        unmount_all(self)
        self._active_mount_paths.clear()
        self.mounts.clear()

    def set_logger(self, logger) -> None:
        """__setLogger (MastraBase): the logger start, stop, destroy and executeCommand log debug lines to."""
        self.logger = logger

    def _debug(self, message: str, **data) -> None:
        if self.logger is not None:
            self.logger.debug(message, {k: v for k, v in data.items() if v is not None})

    def stop(self) -> None:
        if self.status == "stopped":
            return
        self.status = "stopping"
        try:
            if self._on_stop is not None:
                self._on_stop({"sandbox": self})
            self.stop_hook()
        except Exception:
            self.status = "error"
            raise
        self.status = "stopped"

    def destroy(self) -> None:
        if self.status == "destroyed":
            return
        if self.status == "pending":
            self.status = "destroyed"
            return
        self.status = "destroying"
        try:
            if self._on_destroy is not None:
                self._on_destroy({"sandbox": self})
            self.destroy_hook()
        except Exception:
            self.status = "error"
            raise
        self.status = "destroyed"

    # -- mounts --------------------------------------------------------------------------------

    def mount(self, filesystem, mount_path: str) -> dict:
        return mount(self, filesystem, mount_path)

    def unmount(self, mount_path: str) -> None:
        unmount(self, mount_path)

    # -- commands ------------------------------------------------------------------------------

    def execute_command(self, command: str, args: list | None = None, options: dict | None = None, *,
                        timeout_ms: float | None = None, cwd: str | None = None, on_stdout=None, on_stderr=None,
                        abort_signal=None) -> dict:
        """Spawn, wait, forget (MastraSandbox's built-in executeCommand): `args` are shell-quoted
        onto the command; output is retained whole unless `options.maxRetainedBytes` says otherwise.
        on_stdout/on_stderr(data, pid) get the output as it comes (the tool's streaming);
        abort_signal kills the process."""
        options = dict(options or {})
        full = f"{command} {' '.join(shell_quote(a) for a in args)}" if args else command
        retained = options.get("maxRetainedBytes")
        cwd = cwd if cwd is not None else options.get("cwd")
        self._debug("Executing command", sandbox=self.name, command=full, cwd=cwd)
        handle = self._pm.spawn(
            full, cwd=cwd,
            timeout_ms=timeout_ms if timeout_ms is not None else options.get("timeout"), env=options.get("env"),
            max_retained=float("inf") if retained is None else retained,
            on_stdout=on_stdout if on_stdout is not None else _chunk_callback(options.get("onStdout")),
            on_stderr=on_stderr if on_stderr is not None else _chunk_callback(options.get("onStderr")),
            abort_signal=abort_signal, stdin_mode="ignore")
        try:
            result = handle.wait()
            self._debug("Command completed", sandbox=self.name, exitCode=result["exitCode"],
                        duration=result["executionTimeMs"])
            return {**result, "command": full}
        finally:
            self._pm.release(handle.pid)

    def get_instructions(self, opts: dict | None = None) -> str:
        if isinstance(self.instructions, str):
            return self.instructions
        default = f'Local command execution. Working directory: "{self.working_directory}".'
        if callable(self.instructions):
            return self.instructions({"defaultInstructions": default,
                                      "requestContext": (opts or {}).get("requestContext")})
        return default
