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
        # Upstream races the run against a timer: past it the caller gets the timeout error and the
        # next call on the path starts, while this run goes on (and may still write) in the background.
        outcome: dict = {}
        done = threading.Event()

        def work():
            try:
                outcome["result"] = fn()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                outcome["error"] = exc
            finally:
                outcome["seconds"] = time.monotonic() - started
                done.set()

        worker = threading.Thread(target=work, daemon=True)
        started = time.monotonic()
        try:
            worker.start()
            # A run that took longer than the timeout lost the race even when this thread woke late
            # (a short timer on a busy machine): the outcome must not depend on the scheduler.
            if not done.wait(self.timeout_ms / 1000) or outcome["seconds"] * 1000 > self.timeout_ms:
                raise WriteLockTimeout(f'write-lock timeout on "{key}" after {js_number(self.timeout_ms)}ms')
        finally:
            lock.release()
        if "error" in outcome:
            raise outcome["error"]
        return outcome["result"]
