"""The provider kit: the upstream bridge on another filesystem provider, whatever its shape.

A provider is one small module (s3.py, gcs.py, sandboxfs.py) with a `ProviderAdapter` subclass:
the bridge's provider name (tools/mastra-bridge/providers/<name>.mjs), and what the provider needs
around it:

- an object store over a local test server (s3, gcs): `server_class`, a `LocalServer` subclass (the
  server's command line for a port, the request that says it is ready, what to create once it is:
  the bucket), and `bridge_env(server)`, the environment the bridge needs to reach it;
- a provider over a sandbox, or over a local folder (sandboxfs): no server (`server_class = None`);
  the bridge builds it from the case's own sandbox, or a private one it closes with the session;
- files of an npm package taken without its dependency tree (`vendored`, tools/mastra-bridge/vendor.json),
  extracted next to whichever bridge runs before it starts.

The capabilities, and the LocalFilesystem options the provider honours, are declared once, by the
bridge's provider module (its `hello`). `core_version` runs the provider on another @mastra/core
release, from the release cache (release_install.py): adapter `<name>@<version>`. This module does
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

from .base import AdapterFault, AdapterUnavailable
from .node_bridge import bridge_script
from .release_install import release_script
from .subprocess import SubprocessAdapter
from .vendored import ensure_vendored

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
    """The bridge with WSCONF_BRIDGE_FILESYSTEM=<provider>, on a server of its own if it needs one."""

    provider = ""                                 # the bridge's providers/<provider>.mjs
    server_class: type[LocalServer] | None = LocalServer  # None: a provider without a server
    unset_env: tuple[str, ...] = ()               # variables the bridge must not inherit
    vendored: tuple[str, ...] = ()                # npm packages whose listed files the provider imports
    min_timeout = 0.0                             # seconds: the per-call deadline never goes below it
    package = ""                                  # the npm package providers/<provider>.mjs imports, if any

    def bridge_env(self, server: LocalServer | None) -> dict[str, str]:
        """The bridge's environment for the provider (a server's endpoint and bucket)."""
        return {}

    def __init__(self, timeout: float = 30.0, core_version: str | None = None, **process):
        """core_version: the @mastra/core release to run on (None: the bridge's own, 1.71.0);
        process: the subprocess adapter's own options (max_line, confinement)."""
        self.server = self.server_class() if self.server_class is not None else None
        try:
            script = bridge_script() if core_version is None else release_script(core_version)
            if self.package and not (script.parent / "node_modules" / self.package / "package.json").is_file():
                raise AdapterUnavailable(f"{self.package} is not installed beside @mastra/core {core_version} "
                                         f"({script.parent}): a release install leaves out a provider whose peer "
                                         "range names newer cores (adapters/release_install.py)")
            for package in self.vendored:
                ensure_vendored(script.parent, package)
            env = {"WSCONF_BRIDGE_FILESYSTEM": self.provider, **self.bridge_env(self.server)}
            unset = [arg for k in self.unset_env for arg in ("-u", k)]
            argv = ["env", *unset, *(f"{k}={v}" for k, v in env.items()), "node", str(script)]
            super().__init__(argv, timeout=max(timeout, self.min_timeout), **process)
        except BaseException:
            self._stop_server()
            raise

    def own_pids(self) -> set[int]:
        """The server is the adapter's own, not something a case left running."""
        server = self.server.proc.pid if self.server is not None and self.server.proc else None
        return super().own_pids() | ({server} if server else set())

    def _stop_server(self) -> None:
        if self.server is not None:
            self.server.stop()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._stop_server()
