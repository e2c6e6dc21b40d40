"""`mastra-s3`: the upstream bridge on @mastra/s3's S3Filesystem, against a local moto S3 server.

The adapter starts its own server (`python -m moto.server` on 127.0.0.1, a free port, data in
memory), creates the bucket, and starts the bridge with WSCONF_BRIDGE_FILESYSTEM=s3 pointing at it
(spec/protocol.md, "Runs on another filesystem provider"). The server is stopped by its own process
group when the adapter closes, at interpreter exit, and when starting the bridge fails.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from ..node_bridge import bridge_script
from .base import AdapterFault
from .subprocess import SubprocessAdapter

BUCKET = "wsconf"
START_TIMEOUT = 30.0
# Tests set this to a file: each server's pid is appended, so they can check none is left running.
PIDFILE_ENV = "WSCONF_MOTO_PIDFILE"


class MotoServer:
    """A moto S3 server on 127.0.0.1 in its own process group; a context manager."""

    def __init__(self, bucket: str = BUCKET, timeout: float = START_TIMEOUT):
        self.bucket = bucket
        self.proc: subprocess.Popen | None = None
        self.endpoint = ""
        self._log = tempfile.NamedTemporaryFile(prefix="wsconf-moto-", suffix=".log", delete=False)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", "0"],
                stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
                start_new_session=True)
        except OSError as exc:
            self._cleanup_log()
            raise AdapterFault(f"could not start the moto S3 server: {exc}") from None
        atexit.register(self.stop)
        pidfile = os.environ.get(PIDFILE_ENV)
        if pidfile:
            with open(pidfile, "a", encoding="utf-8") as fh:
                fh.write(f"{self.proc.pid}\n")
        try:
            self._wait_ready(timeout)
            self._create_bucket()
        except BaseException:
            self.stop()
            raise

    def _log_text(self) -> str:
        try:
            return Path(self._log.name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def _wait_ready(self, timeout: float) -> None:
        """Until the log names the port and the server answers a request there."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AdapterFault(f"the moto S3 server exited (code {self.proc.returncode}):\n{self._log_text()[-2000:]}")
            if not self.endpoint:
                found = re.search(r"Running on (http://127\.0\.0\.1:\d+)", self._log_text())
                if found:
                    self.endpoint = found.group(1)
            if self.endpoint:
                try:
                    with urllib.request.urlopen(self.endpoint + "/", timeout=2):
                        return
                except (urllib.error.URLError, OSError):
                    pass
            time.sleep(0.05)
        raise AdapterFault(f"the moto S3 server did not answer within {timeout:g} s:\n{self._log_text()[-2000:]}")

    def _create_bucket(self) -> None:
        # moto does not check signatures: a plain PUT creates the bucket (us-east-1, no body).
        request = urllib.request.Request(f"{self.endpoint}/{self.bucket}", method="PUT")
        try:
            with urllib.request.urlopen(request, timeout=10):
                pass
        except urllib.error.URLError as exc:
            raise AdapterFault(f"could not create bucket {self.bucket!r} on {self.endpoint}: {exc}") from None

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
        self._cleanup_log()
        with contextlib.suppress(Exception):
            atexit.unregister(self.stop)

    def _cleanup_log(self) -> None:
        with contextlib.suppress(OSError):
            self._log.close()
            os.unlink(self._log.name)

    def __enter__(self) -> "MotoServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class S3Adapter(SubprocessAdapter):
    """The bridge with WSCONF_BRIDGE_FILESYSTEM=s3, on a moto server of its own."""

    def __init__(self, timeout: float = 30.0, **process):
        self.server = MotoServer()
        env = {"WSCONF_BRIDGE_FILESYSTEM": "s3", "WSCONF_S3_ENDPOINT": self.server.endpoint,
               "WSCONF_S3_BUCKET": self.server.bucket, "WSCONF_S3_REGION": "us-east-1",
               # the AWS SDK must not pick up a real profile or instance credentials
               "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": os.devnull,
               "AWS_SHARED_CREDENTIALS_FILE": os.devnull}
        argv = ["env", *(f"{k}={v}" for k, v in env.items()), "node", str(bridge_script())]
        try:
            super().__init__(argv, timeout=timeout, **process)
        except BaseException:
            self.server.stop()
            raise

    def own_pids(self) -> set[int]:
        return super().own_pids() | {self.server.proc.pid}

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.server.stop()
