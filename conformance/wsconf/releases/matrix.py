"""The suite across @mastra/core releases (`wsconf matrix`, `make matrix`).

Every stable release from FIRST to LAST is installed (releases.py) and the whole suite run against
it with every case applied (`--all-versions`) and no expectations file, so each result says whether
that release behaves as the pinned expectation. Per release, under the matrix folder
(~/.cache/wsconf/matrix by default):

    <version>/install.log    what the install said
    <version>/run.log        the run's terminal output
    <version>/results.jsonl  the results file
    <version>/status.json    {"install": "ok"|reason, "rc": exit code, "seconds": ..., "fingerprint": ...}
    <version>/keys.json      {"fingerprint": ..., "cases": {case id: {"case": hash, "bridge": hash}}}

The matrix is incremental per case. keys.json records, for each case in results.jsonl, the hash of
the case as it was run (case_hash: its YAML content, `versions` left out, as the matrix writes it)
and the bridge's sources it ran through, and for the release the fingerprint of the install. A
case is stale on a release when it has no result or key there, when its content changed, when the
release's fingerprint changed (a reinstall with other pins: every case), or, with `rerun_bridge`,
when the bridge it ran through changed. `--ids FILE` limits the matrix to the cases FILE lists
(after a cache is lost, say, only the cases added since the `versions` were last written need
measuring): the others are neither run nor judged by `check --ids`. A rerun passes only the stale cases (`wsconf run --ids`)
and merges their records into results.jsonl, dropping cases the spec no longer has; a release
with nothing stale is skipped, and releases with only stale cases run before those run in full. So after merging branches that add cases, `wsconf matrix run` runs
just those cases on every release. The bridge is not in the default rule because nearly every
merge adds ops to it; after a change to how an existing op behaves, `--rerun-bridge` reruns every
case that ran through another bridge. A change to how wsconf itself judges outputs (the runner,
placeholders) is in no key: `--full` reruns everything.

A run that did not end with a verdict (exit 0 or 1: the suite ran; not: the bridge could not start,
the deadline) merges nothing (its records are left in results.no-verdict.jsonl); a release that
never had a verdict is run again in full next time (the run is resumable). Each install and
each run has a deadline. Installs go ahead of the runs in threads. Releases are installed and run
in an order that brackets every change soonest (newest, oldest, then the middle of each gap), so a
matrix cut short is still spread over the series. status.json records each release's fingerprint
(the sources of src/workspace/ and src/tools/ in its source maps, with the pinned libraries).

The same matrix can be run as the jobs of a CI matrix: shards.py deals the (release, case) pairs,
each job runs its own into a folder of this layout (`only` per release), and shard_merge.py merges
the folders into the one a single run writes.
"""
from __future__ import annotations

import hashlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from ..adapters.base import AdapterUnavailable
from ..adapters.node_bridge import source_hash
from ..adapters.release_install import release_dir, stable_releases
from ..spec.resources import data_path

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


def case_hash(case) -> str:
    """The hash of a case's content as the spec writes it, `versions` left out (the matrix writes
    them from its own results, which must not make the case stale)."""
    raw = {k: v for k, v in case.raw.items() if k != "versions"}
    return hashlib.sha256(json.dumps(raw, sort_keys=True, default=str).encode()).hexdigest()[:16]


def bridge_hash() -> str:
    """The hash of the bridge's own sources (what `mastra@<version>` runs each release through)."""
    return source_hash(data_path("mastra-bridge"))


def load_keys(folder: Path, version: str) -> dict:
    path = folder / version / "keys.json"
    return json.loads(path.read_text()) if path.is_file() else {"fingerprint": None, "cases": {}}


def stale(spec, keys: dict, results_ids: set[str], fingerprint: str | None, bridge: str,
          rerun_bridge: bool = False) -> list[str]:
    """The ids of the spec's cases whose result on this release is missing or out of date, in spec order."""
    if fingerprint is not None and keys.get("fingerprint") != fingerprint:
        return [case.id for case in spec.cases]
    out = []
    for case in spec.cases:
        key_ = keys.get("cases", {}).get(case.id)
        if (case.id not in results_ids or key_ is None or key_.get("case") != case_hash(case)
                or (rerun_bridge and key_.get("bridge") != bridge)):
            out.append(case.id)
    return out


def merge(folder: Path, version: str, part: Path, spec, ran: list[str], fingerprint: str | None, bridge: str) -> dict:
    """Fold the records of a run of `ran` (results file `part`) into the release's results.jsonl and
    keys.json: a case run now takes its new record; a case not run keeps its old one; a case the spec
    no longer has is dropped. The header is the new run's, `selected` counting the merged file."""
    from ..results.journal import write_results
    from ..results.records import load_results
    out = folder / version
    new = load_results(part)
    old = load_results(out / "results.jsonl") if (out / "results.jsonl").is_file() else None
    keys = load_keys(folder, version)
    if keys.get("fingerprint") != fingerprint:
        keys = {"fingerprint": fingerprint, "cases": {}}
    by_id = {case.id: case for case in spec.cases}
    records, ran_set = {}, set(ran)
    for case in spec.cases:
        if case.id in ran_set and case.id in new.records:
            records[case.id] = new.records[case.id]
            keys["cases"][case.id] = {"case": case_hash(case), "bridge": bridge}
        elif old is not None and case.id in old.records:  # not run, or not reached: its key says so
            records[case.id] = old.records[case.id]
    keys["cases"] = {i: k for i, k in sorted(keys["cases"].items()) if i in by_id and i in records}
    run = dict(new.run or (old.run if old else None) or {})
    run["selected"] = len(records)
    run["merged"] = {"run": len([i for i in ran if i in new.records]), "kept": len(records) - len([i for i in ran if i in new.records])}
    write_results(out / "results.jsonl", run, records.values(),
                  {"counts": dict(Counter(r["outcome"] for r in records.values())), "merged": True})
    (out / "keys.json").write_text(json.dumps(keys, indent=1, sort_keys=True) + "\n")
    part.unlink()
    return run["merged"]


def _write_status(folder: Path, version: str, status: dict) -> None:
    path = folder / version / "status.json"
    path.write_text(json.dumps(status, indent=1, sort_keys=True) + "\n")


def _install(version: str, folder: Path) -> dict:
    out = folder / version
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    try:
        install = release_dir(version)
    except (AdapterUnavailable, OSError) as exc:
        # OSError too (a bridge file vanishing while the sources are hashed): an installer thread
        # that raised would leave the runners waiting out their 900 s deadline.
        exc = exc if isinstance(exc, AdapterUnavailable) else f"{type(exc).__name__}: {exc}"
        (out / "install.log").write_text(str(exc) + "\n")
        return {"install": str(exc), "install_seconds": round(time.monotonic() - started, 1)}
    pins = json.loads((install / ".wsconf-pins.json").read_text())
    (out / "install.log").write_text(f"installed in {install}\npins: {json.dumps(pins, sort_keys=True)}\n")
    return {"install": "ok", "install_seconds": round(time.monotonic() - started, 1), "pins": pins,
            **fingerprint(install)}


def _run(version: str, folder: Path, workers: str, wsconf: str, spec_root: Path, ids: list[str] | None = None) -> dict:
    """Run the suite (or only `ids`) on one release into <version>/results.part.jsonl."""
    out = folder / version
    # --fresh 0: a release's behaviour on the spec's cases only (fresh cases are new every run: a
    # matrix of them could never be merged, compared across releases or resumed)
    argv = [wsconf, "--spec", str(spec_root), "run", "--adapter", f"mastra@{version}", "--all-versions",
            "--no-expectations", "--fresh", "0", "--results", str(out / "results.part.jsonl")]
    argv += ["-n", workers] if workers and workers != "0" else []
    if ids is not None:
        (out / "stale.txt").write_text("".join(f"{i}\n" for i in ids))
        argv += ["--ids", str(out / "stale.txt")]
    started = time.monotonic()
    with open(out / "run.log", "w") as log:
        try:
            rc = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                timeout=RUN_DEADLINE).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    return {"rc": rc, "seconds": round(time.monotonic() - started, 1), "cases_run": len(ids) if ids is not None else "all"}


def verdict(status: dict | None) -> bool:
    """The suite ran to its end on this release (exit 0: all passed, 1: some did not)."""
    return bool(status) and status.get("install") == "ok" and status.get("rc") in (0, 1)


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


def limit(only: set[str] | dict[str, set[str]] | None, version: str) -> set[str] | None:
    """The cases the matrix is limited to on `version`: `only` itself (`--ids`: the same cases on
    every release), or its entry for that release (a shard: each release its own cases)."""
    return only.get(version, set()) if isinstance(only, dict) else only


def every_case(spec, only: set[str] | None) -> list[str] | None:
    """What "run every case" means on a release: None (the whole suite), or with `--ids` the listed
    cases in spec order."""
    return None if only is None else [c.id for c in spec.cases if c.id in only]


def plan(folder: Path, versions: list[str], spec, bridge: str, rerun_bridge: bool = False,
         full: bool = False, only: set[str] | dict[str, set[str]] | None = None) -> dict[str, list[str] | None]:
    """version -> the case ids to run there (None: every case), for the releases with work to do.
    A release with no verdict yet runs in full; one with a verdict runs its stale cases only. The
    install's fingerprint is checked when the release is run (a reinstall makes every case stale).
    only: the matrix is limited to these cases (`--ids`): a release runs those of them it has no
    current result for, and the others are neither run nor made stale; per release for a shard."""
    todo = {}
    for version in versions:
        mine = limit(only, version)
        status = done(folder, version)
        results = folder / version / "results.jsonl"
        if full or not verdict(status) or not results.is_file():
            todo[version] = every_case(spec, mine)
            continue
        from ..results.records import load_results
        ids = stale(spec, load_keys(folder, version), set(load_results(results).records),
                    status.get("fingerprint"), bridge, rerun_bridge)
        if mine is not None:
            ids = [i for i in ids if i in mine]
        if ids:
            todo[version] = ids
    return todo


def run_matrix(folder: Path, versions: list[str], workers: str = "2", installers: int = 2,
               wsconf: str | None = None, log=print, parallel: int = 1, spec=None,
               rerun_bridge: bool = False, full: bool = False,
               only: set[str] | dict[str, set[str]] | None = None) -> dict[str, dict]:
    from ..spec.loader import load_spec
    folder.mkdir(parents=True, exist_ok=True)
    spec = spec or load_spec()
    wsconf = wsconf or str(Path(sys.executable).with_name("wsconf"))
    bridge = bridge_hash()
    installed: dict[str, dict] = {}
    work = plan(folder, versions, spec, bridge, rerun_bridge, full, only)
    todo = [v for v in versions if v in work]
    partial = sum(1 for v in todo if work[v] is not None)
    log(f"matrix: {len(versions)} releases, {len(versions) - len(todo)} up to date, {len(todo) - partial} to run "
        f"in full, {partial} to run their stale cases only ({sum(len(work[v]) for v in todo if work[v])} "
        f"case runs) in {folder}")
    # The releases with only stale cases go first (minutes each), each group in spread order, so a
    # matrix cut short has as many releases up to date as it can.
    order = spread([v for v in todo if work[v] is not None]) + spread([v for v in todo if work[v] is None])
    ready: queue.Queue = queue.Queue()
    pending = queue.Queue()
    for version in order:
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
                    rank = {v: i for i, v in enumerate(order)}
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
            merged = None
            if status["install"] == "ok":
                ids = work[version]
                if ids is not None and load_keys(folder, version).get("fingerprint") != status.get("fingerprint"):
                    # reinstalled with other pins: every case is stale (every listed one, with --ids)
                    ids = every_case(spec, limit(only, version))
                status.update(_run(version, folder, workers, wsconf, Path(spec.root), ids))
                part = folder / version / "results.part.jsonl"
                status["bridge"] = bridge
                if verdict(status) and part.is_file():
                    merged = merge(folder, version, part, spec, ids if ids is not None else [c.id for c in spec.cases],
                                   status.get("fingerprint"), bridge)
                elif part.is_file():  # no verdict (could not start, deadline): its records are not behaviour
                    part.replace(folder / version / "results.no-verdict.jsonl")
            previous = done(folder, version)
            if not verdict(status) and verdict(previous):
                status = {**previous, "last_run": status}  # the earlier verdict stands; its stale cases stay stale
            _write_status(folder, version, status)
            with lock:
                installed[version] = status
                state["finished"] += 1
                count = state["finished"]
            log(f"matrix: {version}: {status.get('rc', 'not run')} in {status.get('seconds', 0)} s, "
                f"{merged or 'nothing merged'} ({count}/{len(todo)})")

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
    p = argparse.ArgumentParser(prog="python -m wsconf.releases.matrix")
    p.add_argument("--folder", default=str(default_folder()))
    p.add_argument("--releases", default=None, help="comma-separated releases (default: every stable one)")
    p.add_argument("-n", "--workers", default="2")
    p.add_argument("--installers", type=int, default=2)
    p.add_argument("--parallel", type=int, default=1, help="releases run at once (each with -n workers)")
    p.add_argument("--rerun-bridge", action="store_true", help="also rerun the cases that ran through another bridge")
    p.add_argument("--full", action="store_true", help="rerun every case on every release")
    args = p.parse_args(argv)
    versions = args.releases.split(",") if args.releases else stable_releases()
    run_matrix(Path(args.folder), versions, args.workers, args.installers,
               log=lambda m: print(time.strftime("%H:%M:%S"), m, flush=True), parallel=args.parallel,
               rerun_bridge=args.rerun_bridge, full=args.full)
    return 0


if __name__ == "__main__":
    sys.exit(main())
