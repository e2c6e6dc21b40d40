"""Older @mastra/core releases behind the bridge: adapter name `mastra@<version>`.

A release is installed once into ~/.cache/wsconf/mastra-release/<version>/: the bridge's
sources copied, package.json set to that @mastra/core (without @mastra/s3, whose peer range names
newer cores), and the libraries that decide the tools' outputs pinned with npm `overrides` to what
the release shipped or declared when it was published:

- a version a release is known to have shipped wins (SHIPPED: tokenx 1.3.0, bundled into the dist
  of 1.70.0 and 1.71.0, while every earlier release declared `^1.3.0`, which resolves to 1.6.0
  today and changes token counts);
- otherwise the highest version satisfying the declared range whose publish time (`npm view <name>
  time`) is at or before the release's own (`npm view @mastra/core time`).

The install is kept per release; the bridge's own modules are copied over it again when they
change. The registry answers are cached beside the installs (registry/*.json), so a matrix of releases asks
the registry once per package, not once per release.
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path

from ..spec.resources import data_path
from .base import AdapterUnavailable
from .node_bridge import cache_root, require_node, source_hash, staged_npm_install

INSTALL_TIMEOUT = 600.0   # seconds: npm install of one release
NPM_VIEW_TIMEOUT = 120.0  # seconds: one registry question
FIRST, LAST = "1.11.0", "1.71.0"  # the first release whose workspace tools load, and the pinned one

# Libraries whose versions decide documented outputs (token counts, globs, ignore rules, spawn errors,
# ...). zod is not among them: it is a peer dependency, the host's choice, so every release runs on
# the bridge's own zod (as an application that moves its @mastra/core pin keeps its zod).
PINNED = ("tokenx", "js-tiktoken", "picomatch", "ignore", "execa")
# What a release is known to have shipped, whatever its range says (see the module docstring).
SHIPPED = {"tokenx": "1.3.0"}


def release_root() -> Path:
    return cache_root().parent / "mastra-release"


def _npm_json(args: list[str]):
    try:
        run = subprocess.run(["npm", "view", *args, "--json"], stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=NPM_VIEW_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AdapterUnavailable(f"npm view {' '.join(args)} did not answer within {NPM_VIEW_TIMEOUT:g} s") from None
    if run.returncode != 0:
        raise AdapterUnavailable(f"npm view {' '.join(args)} failed: {run.stderr.strip()[-500:]}")
    return json.loads(run.stdout or "null")


def _cached(name: str, args: list[str]):
    path = release_root() / "registry" / f"{name}.json"
    if path.is_file():
        return json.loads(path.read_text())
    data = _npm_json(args)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp-{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
    tmp.replace(path)
    return data


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def stable_releases(first: str = FIRST, last: str = LAST) -> list[str]:
    """Every stable @mastra/core release (no prerelease tag) from first to last, oldest first."""
    versions = _cached("mastra-core-versions", ["@mastra/core", "versions"])
    stable = [v for v in versions if "-" not in v and "+" not in v]
    return sorted((v for v in stable if _key(first) <= _key(v) <= _key(last)), key=_key)


def _max_satisfying(versions: list[str], spec: str) -> str | None:
    """node-semver's maxSatisfying, from the semver that npm itself bundles."""
    script = ("const path=require('path');const cp=require('child_process');"
              "const root=cp.execSync('npm root -g').toString().trim();"
              "const semver=require(path.join(root,'npm','node_modules','semver'));"
              "const [v,r]=JSON.parse(require('fs').readFileSync(0,'utf8'));"
              "process.stdout.write(JSON.stringify(semver.maxSatisfying(v,r)))")
    run = subprocess.run(["node", "-e", script], input=json.dumps([versions, spec]), capture_output=True,
                         text=True, timeout=NPM_VIEW_TIMEOUT)
    if run.returncode != 0:
        raise AdapterUnavailable(f"semver in node failed: {run.stderr.strip()[-300:]}")
    return json.loads(run.stdout)


def pins(version: str) -> dict[str, dict]:
    """name -> {declared, version, why} for the PINNED libraries this release declares."""
    core_times = _cached("mastra-core-time", ["@mastra/core", "time"])
    released = core_times.get(version)
    if released is None:
        raise AdapterUnavailable(f"@mastra/core {version} is not on the registry")
    manifest = _cached(f"mastra-core@{version}", [f"@mastra/core@{version}", "dependencies"])
    declared = dict(manifest or {})  # one field asked: npm prints the object itself
    out: dict[str, dict] = {}
    for name in PINNED:
        spec = declared.get(name)
        if spec is None:
            continue
        if name in SHIPPED:
            out[name] = {"declared": spec, "version": SHIPPED[name], "why": "shipped by the releases that bundle it"}
            continue
        times = _cached(f"time-{name.replace('/', '_')}", [name, "time"])
        candidates = [v for v, t in times.items() if v not in ("created", "modified") and "-" not in v and t <= released]
        chosen = _max_satisfying(candidates, spec)
        if chosen is None:
            raise AdapterUnavailable(f"no {name} satisfying {spec} was published before @mastra/core {version} ({released})")
        out[name] = {"declared": spec, "version": chosen, "why": f"newest satisfying the range on {released[:10]}"}
    return out


def _package_json(source: Path, version: str, pinned: dict[str, dict]) -> dict:
    package = json.loads((source / "package.json").read_text())
    deps = dict(package["dependencies"])
    deps.pop("@mastra/s3", None)  # its peer range names newer cores; only the local provider runs here
    deps["@mastra/core"] = version
    package["dependencies"] = deps
    package["overrides"] = {name: info["version"] for name, info in sorted(pinned.items())}
    package["name"] = f"wsconf-mastra-bridge-{version.replace('.', '-')}"
    return package


def _installed(folder: Path, source: Path | None = None) -> bool:
    """The release is installed, and (given the bridge's `source`) with the libraries the bridge
    declares now: a bridge that gained a dependency (the LSP client's) gets it in every release."""
    if not ((folder / "node_modules" / "@mastra" / "core" / "package.json").is_file()
            and (folder / ".wsconf-pins.json").is_file()):
        return False
    return source is None or _declared(folder) == _declared(source)


def _declared(folder: Path) -> dict:
    """A package.json's dependencies but the ones a release install sets itself."""
    deps = dict(json.loads((folder / "package.json").read_text()).get("dependencies") or {})
    for name in ("@mastra/core", "@mastra/s3"):
        deps.pop(name, None)
    return deps


_KEEP = ("node_modules", "package.json", "package-lock.json", ".wsconf-pins.json", ".wsconf-sources")


def _refresh_sources(source: Path, target: Path) -> None:
    """An install outlives edits of the bridge's own modules: copy them over when they changed (the
    npm install depends only on the release and its pins, so it is kept)."""
    stamp = target / ".wsconf-sources"
    digest = source_hash(source)
    if stamp.is_file() and stamp.read_text() == digest:
        return
    for item in target.iterdir():
        if item.name not in _KEEP:
            shutil.rmtree(item) if item.is_dir() else item.unlink()
    for item in source.iterdir():
        if item.name not in _KEEP:
            (shutil.copytree if item.is_dir() else shutil.copy2)(item, target / item.name)
    stamp.write_text(digest)


def release_dir(version: str, install: bool = True) -> Path:
    """The folder with bridge.mjs and node_modules for @mastra/core `version`, installing it if need be."""
    require_node()
    source = data_path("mastra-bridge")
    target = release_root() / version
    if _installed(target, source):
        with open(target.parent / f"{target.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            _refresh_sources(source, target)
        return target
    if not install:
        raise AdapterUnavailable(f"@mastra/core {version} is not installed yet ({target})")
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f"{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a parallel worker may be installing the same release
        if not _installed(target, source):
            _install(source, target, version)
        _refresh_sources(source, target)
    return target


def _install(source: Path, target: Path, version: str) -> None:
    pinned = pins(version)

    def prepare(staging: Path) -> None:
        (staging / "package.json").write_text(json.dumps(_package_json(source, version, pinned), indent=2) + "\n")
        (staging / ".wsconf-pins.json").write_text(json.dumps(pinned, indent=1, sort_keys=True) + "\n")
        if (target / "node_modules").is_dir():  # an older install: npm only adds what is new (hard links: instant)
            shutil.copytree(target / "node_modules", staging / "node_modules", symlinks=True, copy_function=os.link)
            if (target / "package-lock.json").is_file():
                shutil.copy2(target / "package-lock.json", staging / "package-lock.json")

    staged_npm_install(source, target, ["npm", "install"], f"npm install of @mastra/core {version}",
                       lambda staging: (staging / "node_modules" / "@mastra" / "core" / "package.json").is_file(),
                       INSTALL_TIMEOUT, prepare=prepare, ignore=("node_modules", "package-lock.json"))


def release_script(version: str) -> Path:
    return release_dir(version) / "bridge.mjs"
