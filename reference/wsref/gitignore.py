"""loadGitignore (upstream `gitignore.ts`): the workspace root's .gitignore as a filter for list_files and grep.

The matcher itself is the `ignore` npm package, ported in js/ignore.py.
"""
from __future__ import annotations

from .js.ignore import Ignore
from .js.strings import js_trim


def load_gitignore(filesystem):
    """The upstream's loadGitignore: the workspace root's `.gitignore` as a filter, or None.

    Only an absent file (ENOENT) means no filter; any other read error is raised."""
    try:
        raw = filesystem.read_file(".gitignore", "utf-8")
    except Exception as exc:  # noqa: BLE001 - the upstream rethrows all but ENOENT (isEnoentError: code only)
        if getattr(exc, "code", None) == "ENOENT":
            return None
        raise
    if not isinstance(raw, str) or not js_trim(raw):
        return None
    ig = Ignore().add(raw)

    def is_ignored(relative_path: str) -> bool:
        normalized = relative_path[2:] if relative_path.startswith("./") else relative_path
        normalized = normalized[1:] if normalized.startswith("/") else normalized
        if not normalized:
            return False
        return ig.ignores(normalized)
    return is_ignored
