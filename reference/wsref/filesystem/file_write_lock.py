"""The per-file write lock (upstream `filesystem/file-write-lock.ts`): calls on one path run one at a time."""
from __future__ import annotations

import threading
import time
from collections import deque

from ..js import node_path as nodepath
from ..js.errors import JsTypeError
from ..js.strings import js_number


class WriteLockTimeout(Exception):
    pass


class WriteLock:
    """Serialises calls on the same path, first in first out; a call waits at most timeout_ms for its run."""

    def __init__(self, timeout_ms: float | None = None):
        self.timeout_ms = 30_000 if timeout_ms is None else timeout_ms
        self._queues: dict[str, deque] = {}  # per path: the waiting calls' turns, first in first out
        self._guard = threading.Condition()
        self.queued = 0  # how many calls have queued so far (a concurrent caller waits on it)

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
        turn = threading.Event()
        with self._guard:
            queue = self._queues.setdefault(key, deque())
            queue.append(turn)
            if len(queue) == 1:
                turn.set()
            self.queued += 1
            self._guard.notify_all()
        turn.wait()  # upstream chains the calls on one path in order, without a bound; the timeout covers the run
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
            with self._guard:
                queue.popleft()
                if queue:
                    queue[0].set()
                else:
                    del self._queues[key]
        if "error" in outcome:
            raise outcome["error"]
        return outcome["result"]

    def wait_queued(self, before: int, thread: threading.Thread, timeout: float = 5.0) -> None:
        """Until a call has queued since `before` was read, or `thread` has finished."""
        deadline = time.monotonic() + timeout
        with self._guard:
            while self.queued <= before and thread.is_alive() and time.monotonic() < deadline:
                self._guard.wait(0.01)
