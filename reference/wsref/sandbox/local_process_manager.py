"""LocalProcessManager (upstream `sandbox/local-process-manager.ts`): spawn, list, get and kill.

A process is `/bin/sh -c <command>` (or the isolation wrapper's argv) in its own session, so the
whole tree can be signalled through its process group. stdin is a pipe (sendStdin, closeStdin)
unless stdinMode is "ignore" (closed at spawn, as executeCommand and execute_command ask), stdout
and stderr are pipes read by two threads; the process counts as finished when it has exited *and* both pipes
are closed (Node's `close` event), so a grandchild that keeps a pipe open keeps it running.
"""
from __future__ import annotations

import os
import subprocess
import threading

from ..js import execa as execa_errors
from ..js import node_args
from .errors import SpawnError
from .process_manager.process_handle import DEFAULT_MAX_RETAINED_BYTES, ProcessHandle, validate_max_retained_bytes


class EnvPairs(dict):
    """The environment as Node hands it to execve: `key=value` pairs in its order, also `A=B=v`
    (a key holding `=`) and `=v` (an empty key), which a dict given to subprocess cannot express.
    subprocess builds each pair as `key + "=" + value` from items(), so each is split at its first
    `=`; a lookup (PATH, for finding a program) gets the first pair's value, as getenv does."""

    def __init__(self, pairs: list[str]):
        self.pairs = [tuple(pair.split("=", 1)) for pair in pairs]
        super().__init__(reversed(self.pairs))

    def items(self):
        return list(self.pairs)


class LocalProcessManager:
    """Tracks spawned processes by pid. `get` forgets a finished process once it has been read."""

    def __init__(self, sandbox):
        self.sandbox = sandbox
        self._tracked: dict[str, ProcessHandle] = {}
        self._dismissed: set[str] = set()
        self._lock = threading.Lock()

    def _resolve_cwd(self, cwd: str | None) -> str:
        working = self.sandbox.working_directory
        if not cwd:
            return working
        if os.path.isabs(cwd):
            return cwd
        normalized_working = os.path.abspath(working)
        normalized_cwd = os.path.abspath(cwd)  # against the process's own cwd, as upstream does
        if normalized_cwd == normalized_working or normalized_cwd.startswith(normalized_working + os.sep):
            return normalized_cwd
        return os.path.abspath(os.path.join(working, cwd))

    def spawn(self, command: str, cwd: str | None = None, timeout_ms: float | None = None,
              env: dict | None = None, max_retained: float = DEFAULT_MAX_RETAINED_BYTES,
              on_stdout=None, on_stderr=None, abort_signal=None, stdin_mode: str | None = None,
              with_reader: bool = False) -> ProcessHandle:
        """with_reader: the handle's reader stream is opened before any output is read (the protocol's
        process.spawn; in Node no output can arrive before the caller's next statement). stdin_mode
        "ignore" closes stdin at spawn (the tools' commands: a stdin reader sees EOF); otherwise it is
        a pipe (upstream's default for spawn: sendStdin, an LSP client driving its server)."""
        validate_max_retained_bytes(max_retained)  # before the sandbox starts
        self.sandbox.ensure_running()
        overlay = self.sandbox.get_env()
        if overlay:
            env = {**overlay, **(env or {})}
        resolved_cwd = self._resolve_cwd(cwd)
        child_env = self.sandbox.build_env(env)
        wrapped = self.sandbox.wrap_command_for_isolation(command)
        file, args = (command, []) if wrapped is None else (wrapped[0], wrapped[1:])
        spawnfile = "/bin/sh" if wrapped is None else wrapped[0]
        # execa resolves cwd against the process's cwd
        resolved_cwd = os.path.abspath(resolved_cwd)
        try:  # child_process.spawn's own checks and conversions, before anything starts
            sys_file, sys_args, sys_cwd, env_pairs = node_args.spawn_arguments(file, args, resolved_cwd, child_env)
        except node_args.NodeArgError as exc:
            raise SpawnError(execa_errors.spawn_failure_message("ERR_INVALID_ARG_VALUE", exc.message, file, args,
                                                                resolved_cwd)) from None
        sys_argv = [sys_file, *sys_args] if wrapped is not None else ["/bin/sh", "-c", sys_file]
        try:
            stdin = subprocess.DEVNULL if stdin_mode == "ignore" else subprocess.PIPE
            popen = subprocess.Popen(sys_argv, cwd=sys_cwd, env=EnvPairs(env_pairs), stdin=stdin,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            import errno as _errno
            code = _errno.errorcode.get(exc.errno, "EIO")
            raise SpawnError(execa_errors.spawn_failure_message(
                code, execa_errors.node_spawn_error(code, spawnfile), file, args, resolved_cwd)) from None
        handle = ProcessHandle(popen, command, timeout_ms, max_retained, on_stdout, on_stderr, with_reader)
        with self._lock:
            self._tracked[handle.pid] = handle
            self._dismissed.discard(handle.pid)
        if abort_signal is not None:  # an abort kills the process (the listener goes when it exits)
            abort_signal.add_listener(handle.kill)
            handle.on_exit(lambda: abort_signal.remove_listener(handle.kill))
        return handle

    def list(self) -> list[dict]:
        self.sandbox.ensure_running()
        with self._lock:
            handles = list(self._tracked.values())
        # exitCode is undefined while running: left out, as JSON leaves it out
        return [{"pid": h.pid, "running": h.exit_code is None, **({} if h.exit_code is None else {"exitCode": h.exit_code})}
                for h in handles]

    def get(self, pid: str) -> ProcessHandle | None:
        self.sandbox.ensure_running()
        with self._lock:
            if pid in self._dismissed:
                return None
            handle = self._tracked.get(pid)
            if handle is not None and handle.exit_code is not None:
                del self._tracked[handle.pid]
                self._dismissed.add(handle.pid)
        return handle

    def release(self, pid: str) -> None:
        with self._lock:
            self._tracked.pop(pid, None)
            self._dismissed.add(pid)

    def kill(self, pid: str) -> bool:
        handle = self.get(pid)
        if handle is None:
            return False
        killed = handle.kill()
        if killed:
            handle.wait()
        self.release(handle.pid)
        return killed

    def kill_all(self) -> None:
        with self._lock:
            pids = list(self._tracked)
        for pid in pids:
            self.kill(pid)
