"""Globs (upstream `glob.ts`): detection, its static base, createGlobMatcher over picomatch, resolvePathPattern.

picomatch itself is ported in js/picomatch.py. resolvePathPattern is used by search
auto-indexing (autoIndexPaths) and skill discovery (skills paths).
"""
from __future__ import annotations

import re

from .js.picomatch import picomatch

_GLOB_CHARS = re.compile(r"[*?{}\[\]]")


def is_glob_pattern(value: str) -> bool:
    return _GLOB_CHARS.search(value) is not None


def extract_glob_base(pattern: str) -> str:
    """glob.ts extractGlobBase: the directory before the first glob character ('.' if none)."""
    m = _GLOB_CHARS.search(pattern)
    if m is None:
        return pattern
    prefix = pattern[:m.start()]
    last_slash = prefix.rfind("/")
    if last_slash <= 0:
        return "."
    return prefix[:last_slash]


def _normalize_for_match(s: str) -> str:
    if s.startswith("./"):
        return s[2:]
    if s.startswith("/"):
        return s[1:]
    return s


def create_glob_matcher(patterns, dot: bool = False):
    """The upstream's createGlobMatcher(patterns, {dot})."""
    pattern_list = patterns if isinstance(patterns, list) else [patterns]
    matcher = picomatch([_normalize_for_match(p) for p in pattern_list], {"posix": True, "dot": dot})
    return lambda path: matcher(_normalize_for_match(path))



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
