"""glob.ts resolvePathPattern: a plain path or a glob resolved to {path, type} entries.

Used by search auto-indexing (autoIndexPaths) and skill discovery (skills paths).
"""
from __future__ import annotations

from .globs import create_glob_matcher
from .tools.grep import extract_glob_base, is_glob_pattern


def _walk_all(readdir, directory: str, depth: int, max_depth: int) -> list[dict]:
    if depth >= max_depth:
        return []
    try:
        entries = readdir(directory)
    except Exception:
        return []
    out = []
    for entry in entries:
        if entry["type"] == "directory" and entry.get("isSymlink"):
            continue
        full = entry["name"] if directory in (".", "") else f"{directory}/{entry['name']}"
        out.append({"path": full, "type": entry["type"]})
        if entry["type"] == "directory":
            out += _walk_all(readdir, full, depth + 1, max_depth)
    return out


def resolve_path_pattern(pattern: str, readdir, dot: bool = False, max_depth: int = 10) -> list[dict]:
    normalized = pattern[:-1] if len(pattern) > 1 and pattern.endswith("/") else pattern
    if not is_glob_pattern(normalized):
        try:
            readdir(normalized)
            return [{"path": normalized, "type": "directory"}]
        except Exception:
            return [{"path": normalized, "type": "file"}]
    matcher = create_glob_matcher(normalized, dot=dot)
    return [e for e in _walk_all(readdir, extract_glob_base(normalized), 0, max_depth) if matcher(e["path"])]
