"""InMemoryBlobStore (upstream `storage/domains/blobs/inmemory.ts`): content-addressable blobs by hash.

A blob is a dict {hash, content, size, mimeType, createdAt}; the first put of a hash wins.
"""
from __future__ import annotations


class InMemoryBlobStore:
    def __init__(self):
        self._blobs: dict[str, dict] = {}

    def put(self, entry: dict) -> None:
        self._blobs.setdefault(entry["hash"], entry)

    def put_many(self, entries: list[dict]) -> None:
        for entry in entries:
            self.put(entry)

    def get(self, blob_hash: str):
        return self._blobs.get(blob_hash)

    def has(self, blob_hash: str) -> bool:
        return blob_hash in self._blobs

    def delete(self, blob_hash: str) -> bool:
        return self._blobs.pop(blob_hash, None) is not None
