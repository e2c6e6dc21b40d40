"""The suite across @mastra/core releases (`wsconf matrix`, `make matrix`).

Every stable release from FIRST to LAST is installed (releases.py) and the whole suite run against
it with every case applied (`--all-versions`) and no expectations file, so each result says whether
that release behaves as the pinned expectation. Per release, under the matrix folder
(~/.cache/wsconf/matrix by default):

    <version>/install.log    what the install said
    <version>/run.log        the run's terminal output
    <version>/results.jsonl  the results file
    <version>/status.json    {"install": "ok"|reason, "rc": exit code, "seconds": ..., "fingerprint": ...}

A release with a status.json is done and skipped next time (the run is resumable). Each install and
each run has a deadline. Installs go ahead of the runs in a thread. Releases are run in an order
that covers the most change first: one release of each workspace fingerprint (the sources of
src/workspace/ and src/tools/ in the release's source maps, with the pinned libraries), newest
first, then the others.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from .adapters.base import AdapterUnavailable
from .releases import release_dir, stable_releases

RUN_DEADLINE = 1200.0  # seconds for one release's whole suite

_FINGERPRINT = r"""
const fs=require('fs'),path=require('path'),crypto=require('crypto');
const dir=process.argv[1];const files=[];
(function walk(d){for(const e of fs.readdirSync(d,{withFileTypes:true})){const p=path.join(d,e.name);
  if(e.isDirectory())walk(p);else if(p.endsWith('.js.map'))files.push(p)}})(path.join(dir,'node_modules/@mastra/core/dist'));
const src=new Map();
for(const f of files){let m;try{m=JSON.parse(fs.readFileSync(f,'utf8'))}catch{continue}
  (m.sources||[]).forEach((s,i)=>{const k=s.replace(/^.*?\/?src\//,'src/');
    if(/^src\/(workspace|tools)\//.test(k)&&m.sourcesContent&&m.sourcesContent[i]!=null)src.set(k,m.sourcesContent[i])})}
const h=crypto.createHash('sha256');
for(const k of [...src.keys()].sort())h.update(k+'\0'+src.get(k)+'\0');
h.update(fs.readFileSync(path.join(dir,'.wsconf-pins.json')));
process.stdout.write(JSON.stringify({files:src.size,fingerprint:h.digest('hex').slice(0,16)}));
"""


def default_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wsconf" / "matrix"


def fingerprint(install: Path) -> dict:
    run = subprocess.run(["node", "-e", _FINGERPRINT, str(install)], capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        return {"files": 0, "fingerprint": None, "error": run.stderr.strip()[-300:]}
    return json.loads(run.stdout)


def done(folder: Path, version: str) -> dict | None:
    status = folder / version / "status.json"
    return json.loads(status.read_text()) if status.is_file() else None


def _write_status(folder: Path, version: str, status: dict) -> None:
    path = folder / version / "status.json"
    path.write_text(json.dumps(status, indent=1, sort_keys=True) + "\n")


def _install(version: str, folder: Path) -> dict:
    out = folder / version
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    try:
        install = release_dir(version)
    except AdapterUnavailable as exc:
        (out / "install.log").write_text(str(exc) + "\n")
        return {"install": str(exc), "install_seconds": round(time.monotonic() - started, 1)}
    pins = json.loads((install / ".wsconf-pins.json").read_text())
    (out / "install.log").write_text(f"installed in {install}\npins: {json.dumps(pins, sort_keys=True)}\n")
    return {"install": "ok", "install_seconds": round(time.monotonic() - started, 1), "pins": pins,
            **fingerprint(install)}


def _run(version: str, folder: Path, workers: str, wsconf: str) -> dict:
    out = folder / version
    argv = [wsconf, "run", "--adapter", f"mastra@{version}", "--all-versions", "--no-expectations",
            "--results", str(out / "results.jsonl")] + (["-n", workers] if workers and workers != "0" else [])
    started = time.monotonic()
    with open(out / "run.log", "w") as log:
        try:
            rc = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                timeout=RUN_DEADLINE).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    return {"rc": rc, "seconds": round(time.monotonic() - started, 1)}


def order(versions: list[str], fingerprints: dict[str, str | None]) -> list[str]:
    """One release per fingerprint first (newest first), then the rest (newest first)."""
    seen, first, rest = set(), [], []
    for version in reversed(versions):
        fp = fingerprints.get(version)
        (rest if fp in seen and fp is not None else first).append(version)
        seen.add(fp)
    return first + rest


def run_matrix(folder: Path, versions: list[str], workers: str = "2", installers: int = 2,
               wsconf: str | None = None, log=print) -> dict[str, dict]:
    folder.mkdir(parents=True, exist_ok=True)
    wsconf = wsconf or str(Path(sys.executable).with_name("wsconf"))
    installed: dict[str, dict] = {}
    todo = [v for v in versions if done(folder, v) is None]
    log(f"matrix: {len(versions)} releases, {len(versions) - len(todo)} done already, {len(todo)} to run in {folder}")
    ready: queue.Queue = queue.Queue()
    pending = queue.Queue()
    for version in reversed(todo):  # newest first
        pending.put(version)

    def installer():
        while True:
            try:
                version = pending.get_nowait()
            except queue.Empty:
                return
            status = _install(version, folder)
            log(f"matrix: installed {version}: {status['install']} ({status['install_seconds']} s, "
                f"fingerprint {status.get('fingerprint')})")
            ready.put((version, status))

    threads = [threading.Thread(target=installer, daemon=True) for _ in range(max(1, installers))]
    for thread in threads:
        thread.start()
    finished = 0
    fingerprints_run: set = {s.get("fingerprint") for v in versions if (s := done(folder, v))} - {None}
    backlog: list[tuple[str, dict]] = []
    while finished < len(todo):
        try:  # take what is installed; prefer a release whose fingerprint has not been run yet
            while True:
                backlog.append(ready.get(timeout=1 if backlog else 900))
        except queue.Empty:
            pass
        if not backlog:
            log("matrix: no install finished within 900 s; stopping")
            break
        backlog.sort(key=lambda item: (item[1].get("fingerprint") in fingerprints_run, [-p for p in _key(item[0])]))
        version, status = backlog.pop(0)
        if status["install"] == "ok":
            status.update(_run(version, folder, workers, wsconf))
            fingerprints_run.add(status.get("fingerprint"))
        _write_status(folder, version, status)
        installed[version] = status
        finished += 1
        log(f"matrix: {version}: {status.get('rc', 'not run')} in {status.get('seconds', 0)} s "
            f"({finished}/{len(todo)})")
    return installed


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def main(argv=None) -> int:
    import argparse
    p = argparse.ArgumentParser(prog="python -m wsconf.matrix")
    p.add_argument("--folder", default=str(default_folder()))
    p.add_argument("--releases", default=None, help="comma-separated releases (default: every stable one)")
    p.add_argument("-n", "--workers", default="2")
    p.add_argument("--installers", type=int, default=2)
    args = p.parse_args(argv)
    versions = args.releases.split(",") if args.releases else stable_releases()
    run_matrix(Path(args.folder), versions, args.workers, args.installers,
               log=lambda m: print(time.strftime("%H:%M:%S"), m, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
