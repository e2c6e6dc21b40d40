"""The read tracker (upstream `filesystem/file-read-tracker.ts`): mtime recorded on read, checked before write."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from ..js import node_path as nodepath
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


