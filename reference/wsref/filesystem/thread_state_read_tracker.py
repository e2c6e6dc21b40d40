"""The thread-scoped read tracker (upstream `filesystem/thread-state-read-tracker.ts`).

An agent run with a thread id, in a Mastra whose storage has the threadState domain, tracks reads
in that storage under the thread (`type: 'workspace-reads'`), so a read in one run lets a later run
of the same thread write the file. The records are stored as JSON (ISO times, millisecond
precision) and loaded once per tracker; at most 200 per thread, the oldest read evicted first.
"""
from __future__ import annotations

from datetime import datetime, timezone

from .file_read_tracker import ReadRecord, ReadTracker, _tracker_key
from .local_filesystem import iso

WORKSPACE_READS_STATE_TYPE = "workspace-reads"
MAX_RECORDS_PER_THREAD = 200


def _parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


class ThreadStateReadTracker(ReadTracker):
    """store: the thread-state storage, {(threadId, type): value}."""

    def __init__(self, store: dict, thread_id: str):
        super().__init__()
        self.store, self.thread_id = store, thread_id
        for path, raw in (store.get((thread_id, WORKSPACE_READS_STATE_TYPE)) or {}).items():
            self.records[path] = ReadRecord(path, _parse_iso(raw["readAt"]), _parse_iso(raw["modifiedAtRead"]),
                                            raw.get("scope"))

    def record_read(self, path: str, modified_at: datetime, scope: str | None) -> None:
        key = _tracker_key(path)
        if key not in self.records and len(self.records) >= MAX_RECORDS_PER_THREAD:
            oldest = min(self.records.values(), key=lambda r: r.read_at)
            del self.records[oldest.path]
        self.records[key] = ReadRecord(key, datetime.now(timezone.utc), modified_at, scope)
        self._persist()

    def clear(self, path: str) -> None:
        if self.records.pop(_tracker_key(path), None) is not None:
            self._persist()

    def _persist(self) -> None:
        self.store[(self.thread_id, WORKSPACE_READS_STATE_TYPE)] = {
            path: {"readAt": iso(r.read_at), "modifiedAtRead": iso(r.modified_at_read),
                   **({"scope": r.scope} if r.scope is not None else {})}
            for path, r in self.records.items()}
