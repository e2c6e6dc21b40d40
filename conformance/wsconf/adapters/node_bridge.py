"""The upstream bridge's Node install: the checkout's own, or one made by `npm ci` in a user cache.

A checkout after `make setup` has tools/mastra-bridge/node_modules and uses it. An installed wheel
carries the bridge's sources and lockfile; the first use of a mastra adapter (or `wsconf bridge
install`) copies them to ~/.cache/wsconf/mastra-bridge/<hash of the sources>/ and runs `npm ci`
there, once, under a file lock so parallel workers wait for one install. Without Node or npm the
mastra adapters are unavailable with that reason.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from ..spec.resources import data_path
from .base import AdapterUnavailable

INSTALL_TIMEOUT = 900.0  # seconds: npm ci of @mastra/core on a slow registry


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wsconf" / "mastra-bridge"


def _installed(folder: Path) -> bool:
    return (folder / "node_modules" / "@mastra" / "core" / "package.json").is_file()


def _source_files(source: Path) -> list[Path]:
    return sorted(p for p in source.rglob("*") if p.is_file() and "node_modules" not in p.relative_to(source).parts)


def source_hash(source: Path) -> str:
    digest = hashlib.sha256()
    for path in _source_files(source):
        digest.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def require_node() -> None:
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        raise AdapterUnavailable(f"{' and '.join(missing)} not found on PATH: the mastra adapters run the real "
                                 "@mastra/core under Node 20+ (install Node and npm, then `wsconf bridge install`)")


def bridge_dir(install: bool = True) -> Path:
    """The folder holding bridge.mjs with its node_modules, installing it into the cache if need be."""
    source = data_path("mastra-bridge")
    if _installed(source):
        return source
    require_node()
    target = cache_root() / source_hash(source)
    if _installed(target):
        return target
    if not install:
        raise AdapterUnavailable(f"the bridge is not installed yet: run `wsconf bridge install` ({target})")
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f"{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be installing the same sources
        if not _installed(target):
            _install(source, target)
    return target


def _install(source: Path, target: Path) -> None:
    staged_npm_install(source, target, ["npm", "ci"], "npm ci of the bridge", _installed, INSTALL_TIMEOUT)


def staged_npm_install(source: Path, target: Path, command: list[str], what: str, installed, timeout: float,
                       prepare=None, ignore: tuple[str, ...] = ("node_modules",)) -> None:
    """Copy `source` to a staging folder beside `target`, let `prepare(staging)` adjust it, run the npm
    `command` there with a deadline, and only when `installed(staging)` holds put it in `target`'s
    place: a failed or interrupted install never leaves a half-filled cache behind."""
    staging = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(source, staging, ignore=shutil.ignore_patterns(*ignore))
    if prepare is not None:
        prepare(staging)
    try:
        run = subprocess.run([*command, "--no-audit", "--no-fund", "--loglevel=error"], cwd=staging,
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        shutil.rmtree(staging, ignore_errors=True)
        raise AdapterUnavailable(f"{what} did not finish within {timeout:g} s") from None
    if run.returncode != 0 or not installed(staging):
        shutil.rmtree(staging, ignore_errors=True)
        tail = "\n".join((run.stderr or run.stdout).strip().splitlines()[-15:])
        raise AdapterUnavailable(f"{what} failed (exit {run.returncode}):\n{tail}")
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)


def bridge_script() -> Path:
    return bridge_dir() / "bridge.mjs"
