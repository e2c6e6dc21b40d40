"""The provider kit: the upstream bridge on another filesystem provider, over a local test server.

A provider is one small module (s3.py, gcs.py) with two classes:

- a `LocalServer` subclass: the server's command line for a port, the request that says it is
  ready, and what to create once it is (the bucket);
- a `ProviderAdapter` subclass: the bridge's provider name (tools/mastra-bridge/providers/<name>.mjs)
  and the environment the bridge needs to reach the server.

The capabilities are declared once, by the bridge's provider module (its `hello`). This module does
the rest: a free port on 127.0.0.1, readiness with a deadline, and stopping the server by its
process group when the adapter closes, at interpreter exit, and when starting fails.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from .base import AdapterFault
from .node_bridge import bridge_script
from .subprocess import SubprocessAdapter

BUCKET = "wsconf"
START_TIMEOUT = 30.0
# Tests set this to a file: each server's pid is appended, so they can check none is left running.
PIDFILE_ENV = "WSCONF_SERVER_PIDFILE"
# A port picked free can be taken before the server binds it: a server that exits while starting
# is tried again on another port, this many times in all.
START_ATTEMPTS = 3


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalServer:
    """A test server on 127.0.0.1 in its own process group; a context manager."""

    name = "test server"        # for messages
    ready_path = "/"            # a GET here answers 2xx once the server is ready

    def command(self, port: int) -> list[str]:
        raise NotImplementedError

    def prepare(self) -> None:
        """Once ready: create what the bridge expects (the bucket)."""

    def __init__(self, bucket: str = BUCKET, timeout: float = START_TIMEOUT):
        self.bucket = bucket
        self.proc: subprocess.Popen | None = None
        self.endpoint = ""
        self._log = tempfile.NamedTemporaryFile(prefix="wsconf-server-", suffix=".log", delete=False)
        atexit.register(self.stop)
        try:
            deadline = time.monotonic() + timeout
            for attempt in range(1, START_ATTEMPTS + 1):
                self._spawn(free_port())
                if self._wait_ready(deadline, last=attempt == START_ATTEMPTS):
                    break
            self.prepare()
        except BaseException:
            self.stop()
            raise

    def _spawn(self, port: int) -> None:
        self.endpoint = f"http://127.0.0.1:{port}"
        try:
            self.proc = subprocess.Popen(self.command(port), stdin=subprocess.DEVNULL, stdout=self._log,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        except OSError as exc:
            raise AdapterFault(f"could not start the {self.name}: {exc}") from None
        pidfile = os.environ.get(PIDFILE_ENV)
        if pidfile:
            with open(pidfile, "a", encoding="utf-8") as fh:
                fh.write(f"{self.proc.pid}\n")

    def log_text(self) -> str:
        try:
            return Path(self._log.name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def _wait_ready(self, deadline: float, last: bool) -> bool:
        """True once the server answers; False if it exited and another port may be tried."""
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if not last:
                    return False
                raise AdapterFault(f"the {self.name} exited (code {self.proc.returncode}):\n{self.log_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.endpoint + self.ready_path, timeout=2):
                    return True
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        raise AdapterFault(f"the {self.name} did not answer on {self.endpoint} in time:\n{self.log_text()[-2000:]}")

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                ok: tuple[int, ...] = ()) -> None:
        """One HTTP request to the server; a status in `ok` counts as success too (409: exists)."""
        request = urllib.request.Request(self.endpoint + path, data=body, headers=headers or {}, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10):
                pass
        except urllib.error.HTTPError as exc:
            if exc.code not in ok:
                raise AdapterFault(f"{method} {path} on the {self.name}: HTTP {exc.code} "
                                   f"{exc.read()[:300].decode(errors='replace')}") from None
        except (urllib.error.URLError, OSError) as exc:
            raise AdapterFault(f"{method} {path} on the {self.name}: {exc}") from None

    def stop(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, sig)
                try:
                    proc.wait(timeout=wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        with contextlib.suppress(OSError):
            self._log.close()
            os.unlink(self._log.name)
        with contextlib.suppress(Exception):
            atexit.unregister(self.stop)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class ProviderAdapter(SubprocessAdapter):
    """The bridge with WSCONF_BRIDGE_FILESYSTEM=<provider>, on a server of its own."""

    provider = ""                          # the bridge's providers/<provider>.mjs
    server_class: type[LocalServer] = LocalServer
    unset_env: tuple[str, ...] = ()        # variables the bridge must not inherit

    def bridge_env(self, server: LocalServer) -> dict[str, str]:
        raise NotImplementedError

    def __init__(self, timeout: float = 30.0, **process):
        """process: the subprocess adapter's own options (max_line, confinement)."""
        self.server = self.server_class()
        try:
            env = {"WSCONF_BRIDGE_FILESYSTEM": self.provider, **self.bridge_env(self.server)}
            unset = [arg for k in self.unset_env for arg in ("-u", k)]
            argv = ["env", *unset, *(f"{k}={v}" for k, v in env.items()), "node", str(bridge_script())]
            super().__init__(argv, timeout=timeout, **process)
        except BaseException:
            self.server.stop()
            raise

    def own_pids(self) -> set[int]:
        """The server is the adapter's own, not something a case left running."""
        return super().own_pids() | ({self.server.proc.pid} if self.server.proc else set())

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.server.stop()
