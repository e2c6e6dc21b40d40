"""What the harness itself depends on, outside the run folder, looked at before and after the run:
the spec it judges by, the expectations it applies, the Python it runs on (the top of its
site-packages, where a `.pth` file would run code in every later Python) and the top of /etc.

Confined, the implementation cannot write any of them; unconfined, this is how a change there is
found: the run then fails naming each path (a case's own folders are watched case by case, tree.py)."""
from __future__ import annotations

import os
import site
import sysconfig
from pathlib import Path

from .tree import fingerprint_path


def watched_places(spec_roots, expectations_dir) -> list[tuple[Path, bool]]:
    """(path, whole tree?) for each place: the spec folders and the expectations folder whole; the
    site-packages folders and /etc by their top level."""
    places = [(Path(p), True) for p in spec_roots]
    if expectations_dir:
        places.append((Path(expectations_dir), True))
    packages = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    try:
        packages.add(site.getusersitepackages())
    except AttributeError:
        pass
    places += [(Path(p), False) for p in sorted(packages)]
    places.append((Path("/etc"), False))
    seen, out = set(), []
    for path, whole in places:
        real = os.path.realpath(path)
        if real not in seen and os.path.isdir(real):
            seen.add(real)
            out.append((Path(real), whole))
    return out


def snapshot(places) -> dict[str, str]:
    """path -> its fingerprint (tree.py), for every watched path."""
    prints = {}
    for top, whole in places:
        prints[str(top)] = fingerprint_path(str(top))
        if whole:
            for dirpath, dirnames, filenames in os.walk(top):
                dirnames[:] = [d for d in dirnames if d != "__pycache__"]
                for name in dirnames + filenames:
                    path = os.path.join(dirpath, name)
                    prints[path] = fingerprint_path(path)
        else:
            try:
                names = os.listdir(top)
            except OSError:
                continue
            for name in names:
                if name != "__pycache__":
                    path = os.path.join(top, name)
                    prints[path] = fingerprint_path(path, shallow=True)
    return prints


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The watched paths that were created, removed or changed, each once."""
    return sorted(path for path in set(before) | set(after) if before.get(path) != after.get(path))
