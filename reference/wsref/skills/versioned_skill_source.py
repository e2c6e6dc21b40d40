"""VersionedSkillSource (upstream `skills/versioned-skill-source.ts`): a published skill version.

Reads a skill from a version tree (path -> blob hash, size, mime type, encoding) and a blob store,
not from live files: the folders are the ones the tree's file paths imply, every file and folder
has the version's creation time.
"""
from __future__ import annotations

import base64


def _trim_edges(path: str) -> str:
    """Leading `.`, `/`, `\\` and trailing `/`, `\\` removed."""
    start, end = 0, len(path)
    while start < end and path[start] in "./\\":
        start += 1
    while end > start and path[end - 1] in "/\\":
        end -= 1
    return path[start:end]


class SkillSourceError(Exception):
    js_name = "Error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class VersionedSkillSource:
    def __init__(self, tree: dict, blob_store, version_created_at):
        self._entries = tree["entries"]
        self._blobs = blob_store
        self._created_at = version_created_at
        self._directories = {"", "."}
        for file_path in self._entries:
            parts = file_path.split("/")
            for i in range(1, len(parts)):
                self._directories.add("/".join(parts[:i]))

    def exists(self, path: str) -> bool:
        normalized = _trim_edges(path)
        return normalized in self._entries or normalized in self._directories

    def stat(self, path: str) -> dict:
        normalized = _trim_edges(path)
        name = normalized.split("/")[-1] or normalized or "."
        entry = self._entries.get(normalized)
        if entry is not None:
            stat = {"name": name, "type": "file", "size": entry["size"], "createdAt": self._created_at,
                    "modifiedAt": self._created_at}
            if entry.get("mimeType") is not None:
                stat["mimeType"] = entry["mimeType"]
            return stat
        if normalized in self._directories:
            return {"name": name, "type": "directory", "size": 0, "createdAt": self._created_at,
                    "modifiedAt": self._created_at}
        raise SkillSourceError(f"Path not found in skill version tree: {path}")

    def read_file(self, path: str, encoding: str | None = None):
        """The blob's content: text (upstream a string) or, for a base64 entry, its bytes. As every wsref
        skill source, it answers bytes without `encoding` and text with it (the skills code decodes)."""
        entry = self._entries.get(_trim_edges(path))
        if entry is None:
            raise SkillSourceError(f"File not found in skill version tree: {path}")
        blob = self._blobs.get(entry["blobHash"])
        if blob is None:
            raise SkillSourceError(f"Blob not found for hash {entry['blobHash']} (file: {path})")
        if entry.get("encoding") == "base64":
            data = base64.b64decode(blob["content"])
            return data.decode("utf-8", "replace") if encoding else data
        return blob["content"] if encoding else blob["content"].encode("utf-8")

    def readdir(self, path: str) -> list[dict]:
        normalized = _trim_edges(path)
        if normalized not in self._directories:
            raise SkillSourceError(f"Directory not found in skill version tree: {path}")
        prefix = "" if normalized == "" else normalized + "/"
        seen, out = set(), []
        for file_path in self._entries:
            if not file_path.startswith(prefix):
                continue
            remaining = file_path[len(prefix):]
            segment = remaining.split("/")[0]
            if not segment or segment in seen:
                continue
            seen.add(segment)
            out.append({"name": segment, "type": "directory" if "/" in remaining else "file"})
        return out

    def realpath(self, path: str) -> str:
        return _trim_edges(path)
