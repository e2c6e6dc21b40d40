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
each run has a deadline. Installs go ahead of the runs in threads. Releases are installed and run
in an order that brackets every change soonest (newest, oldest, then the middle of each gap), so a
matrix cut short is still spread over the series. status.json records each release's fingerprint
(the sources of src/workspace/ and src/tools/ in its source maps, with the pinned libraries).
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


def spread(versions: list[str]) -> list[str]:
    """The releases in the order that brackets every change soonest: newest, oldest, then the middle
    of each gap in turn. A matrix cut short still has its runs spread over the whole series."""
    ordered = sorted(versions, key=_key)
    if len(ordered) <= 2:
        return list(reversed(ordered))
    out, gaps = [ordered[-1], ordered[0]], [(0, len(ordered) - 1)]
    while gaps:
        next_gaps = []
        for lo, hi in gaps:
            if hi - lo < 2:
                continue
            mid = (lo + hi + 1) // 2
            out.append(ordered[mid])
            next_gaps += [(mid, hi), (lo, mid)]
        gaps = next_gaps
    return out


def run_matrix(folder: Path, versions: list[str], workers: str = "2", installers: int = 2,
               wsconf: str | None = None, log=print, parallel: int = 1) -> dict[str, dict]:
    folder.mkdir(parents=True, exist_ok=True)
    wsconf = wsconf or str(Path(sys.executable).with_name("wsconf"))
    installed: dict[str, dict] = {}
    todo = [v for v in versions if done(folder, v) is None]
    log(f"matrix: {len(versions)} releases, {len(versions) - len(todo)} done already, {len(todo)} to run in {folder}")
    ready: queue.Queue = queue.Queue()
    pending = queue.Queue()
    for version in spread(todo):
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
    lock = threading.Lock()
    backlog: list[tuple[str, dict]] = []
    state = {"finished": 0, "taken": 0, "stalled": False}

    def take():
        """The next installed release, in spread order."""
        while True:
            with lock:
                if state["taken"] >= len(todo) or state["stalled"]:
                    return None
                try:
                    while True:
                        backlog.append(ready.get_nowait())
                except queue.Empty:
                    pass
                if backlog:
                    rank = {v: i for i, v in enumerate(spread(todo))}
                    backlog.sort(key=lambda item: rank[item[0]])
                    item = backlog.pop(0)
                    state["taken"] += 1
                    return item
            try:  # wait for an install, with a deadline
                item = ready.get(timeout=900)
            except queue.Empty:
                log("matrix: no install finished within 900 s; stopping")
                state["stalled"] = True
                return None
            with lock:
                backlog.append(item)

    def runner():
        while True:
            item = take()
            if item is None:
                return
            version, status = item
            if status["install"] == "ok":
                status.update(_run(version, folder, workers, wsconf))
            _write_status(folder, version, status)
            with lock:
                installed[version] = status
                state["finished"] += 1
                count = state["finished"]
            log(f"matrix: {version}: {status.get('rc', 'not run')} in {status.get('seconds', 0)} s ({count}/{len(todo)})")

    runners = [threading.Thread(target=runner) for _ in range(max(1, parallel))]
    for thread in runners:
        thread.start()
    for thread in runners:
        thread.join()
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
    p.add_argument("--parallel", type=int, default=1, help="releases run at once (each with -n workers)")
    args = p.parse_args(argv)
    versions = args.releases.split(",") if args.releases else stable_releases()
    run_matrix(Path(args.folder), versions, args.workers, args.installers,
               log=lambda m: print(time.strftime("%H:%M:%S"), m, flush=True), parallel=args.parallel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
