"""The per-file write lock (upstream `filesystem/file-write-lock.ts`): calls on one path run one at a time."""
from __future__ import annotations

import threading
import time

from ..js import node_path as nodepath
from ..js.errors import JsTypeError
from ..js.strings import js_number


class WriteLockTimeout(Exception):
    pass


class WriteLock:
    """Serialises calls on the same path; a call waits at most timeout_ms for its turn and its run."""

    def __init__(self, timeout_ms: float | None = None):
        self.timeout_ms = 30_000 if timeout_ms is None else timeout_ms
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    @staticmethod
    def key(path: str) -> str:
        if not isinstance(path, str):
            raise JsTypeError("pathStr.replace is not a function")
        p = path.replace("\\", "/")
        while p.startswith("//"):
            p = p[1:]
        normalized = nodepath.normalize(p).rstrip("/")
        return normalized or "/"

    def run(self, path: str, fn):
        key = self.key(path)
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        lock.acquire()  # upstream queues without a bound; the timeout covers the run itself
        try:
            started = time.monotonic()
            result = fn()
            # Upstream races the run against a timer: past it the caller gets the timeout error
            # even though the write itself went on and finished.
            if (time.monotonic() - started) * 1000 > self.timeout_ms:
                raise WriteLockTimeout(f'write-lock timeout on "{key}" after {js_number(self.timeout_ms)}ms')
            return result
        finally:
            lock.release()
