"""A few files of an npm package the bridge needs without the package's dependency tree.

`tools/mastra-bridge/vendor.json` names each package, its exact version, the integrity of its
tarball (as the registry states it, committed here) and the files to take. `ensure_vendored(folder)`
fetches the tarball with npm's own client (`npm pack`), checks it against that integrity, and
extracts only the listed files into `<folder>/vendor/<package folder>/`, with a stamp holding the
integrity, so a later call costs one file read. In a checkout `make setup` does it for
tools/mastra-bridge (the folder is git-ignored: the package's code is never committed); from an
installed wheel it happens on first use, in the bridge's folder in the user cache.
"""
from __future__ import annotations

import base64
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from .base import AdapterUnavailable

PACK_TIMEOUT = 300.0  # seconds: one npm pack
STAMP = ".wsconf-integrity"


def manifest(bridge: Path) -> dict[str, dict]:
    return json.loads((bridge / "vendor.json").read_text(encoding="utf-8"))["packages"]


def vendored_dir(bridge: Path, package: str) -> Path:
    return bridge / "vendor" / manifest(bridge)[package]["folder"]


def integrity_of(data: bytes) -> str:
    """npm's integrity string of a tarball: sha512-<base64 of the digest>."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _ready(target: Path, pin: dict) -> bool:
    stamp = target / STAMP
    return (stamp.is_file() and stamp.read_text(encoding="utf-8") == pin["integrity"]
            and all((target / name).is_file() for name in pin["files"]))


def ensure_vendored(bridge: Path, package: str) -> Path:
    """The folder holding `package`'s listed files under `bridge`, fetched and checked if need be."""
    pin = manifest(bridge)[package]
    target = vendored_dir(bridge, package)
    if _ready(target, pin):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{pin['folder']}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel workers wait for one extraction
        if not _ready(target, pin):
            _extract(_pack(package, pin), target, package, pin)
    return target


def _pack(package: str, pin: dict) -> bytes:
    """The exact tarball, by npm's ordinary client, checked against the committed integrity."""
    if shutil.which("npm") is None:
        raise AdapterUnavailable(f"npm not found on PATH: {package} {pin['version']} is fetched with `npm pack`")
    spec = f"{package}@{pin['version']}"
    with tempfile.TemporaryDirectory(prefix="wsconf-pack-") as tmp:
        try:
            run = subprocess.run(["npm", "pack", spec, "--json", "--pack-destination", tmp, "--loglevel=error"],
                                 cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                 timeout=PACK_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise AdapterUnavailable(f"npm pack {spec} did not finish within {PACK_TIMEOUT:g} s") from None
        tarballs = sorted(Path(tmp).glob("*.tgz"))
        if run.returncode != 0 or len(tarballs) != 1:
            raise AdapterUnavailable(f"npm pack {spec} failed (exit {run.returncode}): {run.stderr.strip()[-500:]}")
        data = tarballs[0].read_bytes()
    got = integrity_of(data)
    if got != pin["integrity"]:
        raise AdapterUnavailable(f"npm pack {spec}: the tarball's integrity {got} is not the pinned "
                                 f"{pin['integrity']} (tools/mastra-bridge/vendor.json)")
    return data


def _extract(data: bytes, target: Path, package: str, pin: dict) -> None:
    """Only the listed files, as regular files (npm tarballs keep them under package/)."""
    staging = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    with tempfile.NamedTemporaryFile(suffix=".tgz") as tgz:
        tgz.write(data)
        tgz.flush()
        with tarfile.open(tgz.name, "r:gz") as tar:
            for name in pin["files"]:
                try:
                    member = tar.getmember(f"package/{name}")
                except KeyError:
                    raise AdapterUnavailable(f"{package} {pin['version']} has no {name}") from None
                if not member.isfile():
                    raise AdapterUnavailable(f"{package} {pin['version']}: {name} is not a regular file")
                out = staging / name
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(tar.extractfile(member).read())
    (staging / STAMP).write_text(pin["integrity"], encoding="utf-8")
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)


if __name__ == "__main__":  # make setup: python -m wsconf.adapters.vendored <bridge folder>
    import sys
    folder = Path(sys.argv[1])
    for name in manifest(folder):
        print(f"{name}: {ensure_vendored(folder, name)}")
