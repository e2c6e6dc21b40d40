"""The read tracker (mtime recorded on read, checked before write) and the per-file write lock."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone

from . import nodepath
from .errors import JsTypeError
from .local_filesystem import iso


def read_scope(fs) -> str:
    base = getattr(fs, "basePath", None)
    return f"{fs.provider}:{base}" if base else fs.provider


def _tracker_key(path: str) -> str:
    normalized = nodepath.normalize(path.replace("\\", "/"))
    return normalized[:-1] if normalized.endswith("/") and len(normalized) > 1 else (normalized or "/")


@dataclass
class ReadRecord:
    path: str
    read_at: datetime
    modified_at_read: datetime
    scope: str | None


class ReadTracker:
    def __init__(self):
        self.records: dict[str, ReadRecord] = {}

    def record_read(self, path: str, modified_at: datetime, scope: str | None) -> None:
        key = _tracker_key(path)
        self.records[key] = ReadRecord(key, datetime.now(timezone.utc), modified_at, scope)

    def get(self, path: str) -> ReadRecord | None:
        return self.records.get(_tracker_key(path))

    def needs_reread(self, path: str, current: datetime, scope: str | None) -> str | None:
        """The reason the file must be read (again) first, or None."""
        record = self.get(path)
        if record is None:
            return f'File "{path}" has not been read. You must read a file before writing to it.'
        if record.scope != scope:
            return f'File "{path}" was read in a different filesystem. You must read a file before writing to it.'
        if current > record.modified_at_read:
            return (f'File "{path}" was modified since last read (read at: {iso(record.modified_at_read)}, '
                    f'current: {iso(current)}). Please re-read the file to get the latest contents.')
        return None

    def clear(self, path: str) -> None:
        self.records.pop(_tracker_key(path), None)


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


def js_number(x: float) -> str:
    """A number as JavaScript's String(x) prints it, for the cases that reach messages."""
    if float(x).is_integer() and abs(x) < 1e21:
        return str(int(x))
    return repr(float(x))
