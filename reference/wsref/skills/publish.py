"""Publishing a skill (upstream `skills/publish.ts`): its files hashed into a version tree and blobs.

Ported: the walk, the hashes, the tree (per file: blobHash, size, mimeType, and encoding base64 for a
binary type) and the blob entries, and the check that SKILL.md is there. Not ported: the snapshot
fields parsed from SKILL.md's frontmatter and the nested file list for a stored skill record, which
serving a published version (VersionedSkillSource) does not read.
"""
from __future__ import annotations

import base64
import datetime
import hashlib

_MIME_TYPES = {
    ".md": "text/markdown", ".txt": "text/plain", ".json": "application/json", ".yaml": "text/yaml",
    ".yml": "text/yaml", ".sh": "text/x-shellscript", ".py": "text/x-python", ".js": "text/javascript",
    ".ts": "text/typescript", ".html": "text/html", ".css": "text/css", ".png": "image/png",
    ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".svg": "image/svg+xml",
}


def detect_mime_type(filename: str):
    """By the extension from the last dot (the whole name without one), lower-cased."""
    return _MIME_TYPES.get(filename[filename.rfind("."):].lower() if "." in filename else filename[-1:].lower())


def _is_binary(mime_type) -> bool:
    if not mime_type or mime_type.startswith("text/"):
        return False
    return mime_type not in ("application/json", "image/svg+xml")


def _join(*segments: str) -> str:
    parts = [s.rstrip("/") if i == 0 else s.strip("/") for i, s in enumerate(segments)]
    return "/".join(p for p in parts if p)


def _walk(source, base_path: str, current: str | None = None) -> list[dict]:
    """Every file under the skill folder, depth-first in readdir order: {path (relative), content, isBinary}."""
    current = base_path if current is None else current
    files = []
    for entry in source.readdir(current):
        entry_path = _join(current, entry["name"])
        if entry["type"] == "directory":
            files += _walk(source, base_path, entry_path)
            continue
        raw = source.read_file(entry_path)
        raw = raw if isinstance(raw, bytes) else raw.encode("utf-8")
        relative = entry_path[len(base_path) + 1:]
        if _is_binary(detect_mime_type(entry["name"])):
            files.append({"path": relative, "content": raw, "isBinary": True})
        else:
            files.append({"path": relative, "content": raw.decode("utf-8", "replace"), "isBinary": False})
    return files


def collect_skill_for_publish(source, skill_path: str) -> dict:
    """{tree: {entries}, blobs}: one blob per distinct content (sha256 hex of its bytes)."""
    files = _walk(source, skill_path)
    entries: dict[str, dict] = {}
    blobs: dict[str, dict] = {}
    now = datetime.datetime.now(datetime.timezone.utc)
    for file in files:
        data = file["content"] if file["isBinary"] else file["content"].encode("utf-8")
        digest = hashlib.sha256(data).hexdigest()
        mime_type = detect_mime_type(file["path"])
        entry = {"blobHash": digest, "size": len(data), "mimeType": mime_type}
        content = file["content"]
        if file["isBinary"]:
            entry["encoding"] = "base64"
            content = base64.b64encode(data).decode("ascii")
        entries[file["path"]] = entry
        blobs.setdefault(digest, {"hash": digest, "content": content, "size": len(data), "mimeType": mime_type,
                                  "createdAt": now})
    if not any(f["path"] == "SKILL.md" for f in files):
        raise _PublishError(f"SKILL.md not found in {skill_path}")
    return {"tree": {"entries": entries}, "blobs": list(blobs.values())}


def publish_skill_from_source(source, skill_path: str, blob_store) -> dict:
    result = collect_skill_for_publish(source, skill_path)
    blob_store.put_many(result["blobs"])
    return result


class _PublishError(Exception):
    js_name = "Error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
