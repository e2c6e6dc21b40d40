"""The spec's hash: what a run judged against, in the results' first line, and checked again when the
run ends (an implementation that edits the spec it is judged by is found out)."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path


def spec_digest(spec_root: Path) -> str:
    """sha256 over every file under the spec folder: its path relative to the folder and its bytes,
    in path order (a link is hashed as its target's text, never followed)."""
    root = Path(spec_root)
    h = hashlib.sha256()
    paths = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "__pycache__"]
        paths += [Path(dirpath) / name for name in filenames]
    for path in sorted(paths, key=lambda p: str(p.relative_to(root))):
        h.update(str(path.relative_to(root)).encode("utf-8", "surrogateescape") + b"\0")
        try:
            h.update(os.readlink(path).encode("utf-8", "surrogateescape") if path.is_symlink() else path.read_bytes())
        except OSError as exc:
            h.update(f"unreadable:{exc.errno}".encode())
        h.update(b"\0")
    return h.hexdigest()
