"""The loaded spec, kept once per process and on disk, keyed by the hash of what it was made from.

Parsing and validating every case takes seconds, and each xdist worker, each CLI call and many
tests load the spec again. The key covers every file under the spec folder (and the default
schemas), the folder's own path, the source of the loader's room (spec/) and the YAML and JSON Schema versions, so a
changed case, schema or loader never reuses an old result. The disk copy is a pickle in
$WSCONF_CACHE_DIR (default ~/.cache/wsconf; "off" disables it); any problem with it is ignored and
the spec is loaded from the files.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from importlib.util import find_spec
from pathlib import Path

_memo: dict[str, object] = {}
_KEEP = 32  # cache files kept (several worktrees and spec versions)


def _key(spec_root: Path, default_spec_dir: Path) -> str:
    h = hashlib.sha256()
    h.update(str(spec_root).encode())
    for package, dist in (("yaml", "pyyaml"), ("jsonschema", "jsonschema")):
        h.update(b"\0" + _installed_as(package, dist).encode())
    sources = sorted(Path(__file__).resolve().parent.glob("*.py"))  # the loader and what it imports
    inputs = sorted(p for p in spec_root.rglob("*") if p.is_file())
    inputs += sorted((default_spec_dir / "schema").glob("*.json"))
    for path in sources + inputs:
        h.update(b"\0" + str(path).encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def _installed_as(package: str, dist: str) -> str:
    """Where a package is installed and its dist-info's name (which holds the version), without
    importing it or importlib.metadata (both slower than the whole cached load)."""
    spec = find_spec(package)
    site = Path(spec.origin).parent.parent if spec and spec.origin else None
    if site is None:
        return package
    return " ".join([str(site)] + sorted(p.name for p in site.glob("*.dist-info")
                                         if p.name.lower().startswith(f"{dist}-")))


# Resolved when the harness starts: a case runs with HOME set to its own folder.
_DEFAULT_DIR = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wsconf"


def _cache_dir() -> Path | None:
    setting = os.environ.get("WSCONF_CACHE_DIR")
    if setting == "off":
        return None
    return Path(setting) if setting else _DEFAULT_DIR


def cache_folder() -> tuple[Path | None, list[Path]]:
    """The folder the loaded specs are kept in, and what else it holds (the bridge and release
    installs): a confined implementation is shown the rest of it, never the specs."""
    folder = _cache_dir()
    if folder is None or not folder.is_dir():
        return None, []
    return folder, sorted(p for p in folder.iterdir() if not p.name.startswith(("spec-", ".spec-")))


def cached_load(spec_root: Path, default_spec_dir: Path, load):
    """load(spec_root) once per content: from this process's memo, else the disk cache, else load."""
    try:
        key = _key(spec_root, default_spec_dir)
    except OSError:
        return load(spec_root)  # an unreadable file: let the loader report it
    if key in _memo:
        return _memo[key]
    folder = _cache_dir()
    path = folder / f"spec-{key[:32]}.pickle" if folder else None
    spec = None
    if path is not None:
        try:
            spec = pickle.loads(path.read_bytes())
        except Exception:  # absent, truncated or from another Python: load afresh
            spec = None
    if spec is None:
        spec = load(spec_root)
        if path is not None:
            _store(path, spec)
    _memo[key] = spec
    return spec


def _store(path: Path, spec) -> None:
    import tempfile
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".spec-")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(spec, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the whole new one
        old = sorted(path.parent.glob("spec-*.pickle"), key=lambda p: p.stat().st_mtime)[:-_KEEP]
        for stale in old:
            stale.unlink(missing_ok=True)
    except OSError:
        pass
