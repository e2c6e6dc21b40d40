"""Shards of a matrix run (shards.py) into one matrix folder, as a single `wsconf matrix run` writes it
(`wsconf matrix merge SHARD...`), so ranges, check, the changelog and the site read it unchanged.

Everything is checked before anything is written, and every problem is named by its file: shards of
another spec, bridge, deal or set of releases; a shard given twice or missing; a pair in two
shards; a release a shard did not run to a verdict (no result for its cases); a release installed
with other pins in two shards. Per release the merge writes what a single run would have:

    results.jsonl   the first shard's header (selected and merged counting the whole), every record in spec
                    order, the end line (counts, sha256) as matrix.merge writes it
    keys.json       the shards' keys together
    status.json     the first shard's, with rc the worst of the shards' (0 or 1), seconds their sum,
                    install_seconds the longest, cases_run "all" (or the count, for a matrix limited by --ids)
    stale.txt       the cases run, for a matrix limited by --ids (as a single run writes it)
    install.log     the first shard's; run.log: every shard's, one after another
    results.part.jsonl.outputs/   the huge actuals, their records' actual_file pointing here

The timing fields are the only ones to differ from a single run (with the header's `fresh_seed`, a
run's random number, unused when cases are run by id): each record's `duration`, the
sha256 of results.jsonl's end line (of the lines, durations included), and status.json's `seconds`
and `install_seconds` (the logs are the shards' terminal output).
"""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

from ..results.journal import write_results
from ..results.records import ResultsError, load_results
from .matrix import verdict
from .shards import MANIFEST, ShardError, digest, read_manifest, spec_digest

SAME = ("of", "spec", "bridge", "wsconf", "releases", "cases", "limited", "deal")
OUTPUTS = "results.part.jsonl.outputs"
# A header's fields that differ from run to run: the counts the merge sets, and the fresh cases' random
# seed (the matrix runs the spec's cases by id: no fresh case is made); the first shard's is kept.
PER_RUN = ("selected", "merged", "fresh_seed")


def _manifests(folders: list[Path], spec) -> list[tuple[Path, dict]]:
    """Each shard's manifest, checked against the others and against the spec of this merge."""
    problems = []
    shards = []
    for folder in folders:
        try:
            shards.append((folder, read_manifest(folder / MANIFEST)))
        except ShardError as exc:
            problems.append(str(exc))
    if problems:
        raise ShardError("\n".join(problems))
    first_folder, first = shards[0]
    for folder, data in shards[1:]:
        differ = [k for k in SAME if data.get(k) != first.get(k)]
        if differ:
            problems.append(f"{folder / MANIFEST}: another run than {first_folder / MANIFEST} "
                            f"({', '.join(f'{k} {data.get(k)!r} vs {first.get(k)!r}' for k in differ)[:600]})")
    if first["spec"] != spec_digest(spec):
        problems.append(f"{first_folder / MANIFEST}: run on another spec ({first['spec']}) than {spec.root} "
                        f"({spec_digest(spec)}): merge with the spec the shards ran (--spec)")
    seen: dict[int, Path] = {}
    for folder, data in shards:
        if data["shard"] in seen:
            problems.append(f"{folder / MANIFEST}: shard {data['shard']}/{data['of']} given twice "
                            f"(also {seen[data['shard']] / MANIFEST})")
        seen[data["shard"]] = folder
    missing = [str(i) for i in range(1, int(first["of"]) + 1) if i not in seen]
    if missing and not problems:
        problems.append(f"shard(s) {', '.join(missing)} of {first['of']} missing (given: "
                        f"{', '.join(str(f) for f, _ in shards)})")
    if problems:
        raise ShardError("\n".join(problems))
    return sorted(shards, key=lambda item: item[1]["shard"])


def _pairs(shards: list[tuple[Path, dict]], spec) -> dict[str, list[tuple[Path, dict, list[str]]]]:
    """release -> the shards holding it with their cases; every pair in exactly one shard."""
    order = {case.id: n for n, case in enumerate(spec.cases)}
    owner: dict[tuple[str, str], Path] = {}
    problems = []
    per_release: dict[str, list] = {}
    for folder, data in shards:
        for version, ids in data["pairs"].items():
            if version not in data["releases"]:
                problems.append(f"{folder / MANIFEST}: release {version} is not one of the deal's")
            for case_id in ids:
                if case_id not in order:
                    problems.append(f"{folder / MANIFEST}: {version}: {case_id!r} is not a case of {spec.root}")
                elif (version, case_id) in owner:
                    problems.append(f"{folder / MANIFEST}: {case_id} on {version} is also in "
                                    f"{owner[(version, case_id)] / MANIFEST}")
                owner[(version, case_id)] = folder
            per_release.setdefault(version, []).append((folder, data, ids))
    releases = shards[0][1]["releases"]
    expected = None
    for version in releases:
        ids = sorted({i for (v, i), _ in owner.items() if v == version and i in order}, key=order.get)
        expected = ids if expected is None else expected
        if ids != expected or digest(ids) != shards[0][1]["cases"]:
            lacking = sorted(set(expected) - set(ids), key=order.get)[:5]
            problems.append(f"release {version}: the shards' pairs do not cover the deal's cases"
                            + (f" (no shard has {', '.join(lacking)})" if lacking else ""))
    if problems:
        raise ShardError("\n".join(problems[:20]) + (f"\n... {len(problems) - 20} more" if len(problems) > 20 else ""))
    return {v: per_release[v] for v in releases if v in per_release}


def _json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ShardError(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ShardError(f"{path}: expected a JSON object")
    return data


def _read_release(folder: Path, version: str, ids: list[str]) -> dict:
    """A shard's results, keys and status of one release; its cases all run to a verdict."""
    where = folder / version
    status_path = where / "status.json"
    if not status_path.is_file():
        raise ShardError(f"{status_path}: missing: the shard did not run {version} (see its job's log)")
    status = _json(status_path)
    if not verdict(status):
        raise ShardError(f"{status_path}: {version} did not run to a verdict (install {status.get('install')!r}, "
                         f"rc {status.get('rc')!r}; see {where / 'run.log'}): run this shard again")
    results_path = where / "results.jsonl"
    if not results_path.is_file():
        raise ShardError(f"{results_path}: missing")
    try:
        results = load_results(results_path)
    except ResultsError as exc:  # a line cut short, without an id, or changed after the run
        raise ShardError(f"{results_path}: not a results file ({exc})") from None
    lacking = [i for i in ids if i not in results.records]
    extra = sorted(set(results.records) - set(ids))
    if lacking or extra:
        raise ShardError(f"{results_path}: " + "; ".join(
            part for part in (f"no result for {len(lacking)} of the shard's cases ({', '.join(lacking[:3])})" if lacking else "",
                              f"results for {len(extra)} cases dealt to other shards ({', '.join(extra[:3])})" if extra else "")
            if part))
    keys = _json(where / "keys.json") if (where / "keys.json").is_file() else {"cases": {}}
    return {"folder": folder, "results": results, "keys": keys, "status": status}


def _same_install(version: str, parts: list[dict]) -> None:
    first = parts[0]
    for part in parts[1:]:
        for field in ("fingerprint", "pins", "bridge"):
            if part["status"].get(field) != first["status"].get(field):
                raise ShardError(f"{part['folder'] / version / 'status.json'}: {version} ran with another {field} "
                                 f"than in {first['folder'] / version / 'status.json'}")
        ours = {k: v for k, v in (part["results"].run or {}).items() if k not in PER_RUN}
        theirs = {k: v for k, v in (first["results"].run or {}).items() if k not in PER_RUN}
        if ours != theirs:
            differ = sorted(k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k))
            raise ShardError(f"{part['folder'] / version / 'results.jsonl'}: its header differs from "
                             f"{first['folder'] / version / 'results.jsonl'}'s in {', '.join(differ)}")


def _moved(record: dict, outputs: Path) -> dict:
    """The record with its kept actuals' paths pointing into the merged release's outputs folder."""
    steps = record.get("steps")
    if not isinstance(steps, list) or not any(isinstance(s, dict) and s.get("actual_file") for s in steps):
        return record
    return {**record, "steps": [{**s, "actual_file": str(outputs / Path(s["actual_file"]).name)}
                                if isinstance(s, dict) and s.get("actual_file") else s for s in steps]}


def _write_release(out: Path, version: str, parts: list[dict], spec, limited: bool) -> int:
    where = out / version
    where.mkdir(parents=True)
    records = {}
    for part in parts:
        source = part["folder"] / version
        for case_id, record in part["results"].records.items():
            records[case_id] = _moved(record, where / OUTPUTS)
        if (source / OUTPUTS).is_dir():
            shutil.copytree(source / OUTPUTS, where / OUTPUTS, dirs_exist_ok=True)
    ordered = [records[c.id] for c in spec.cases if c.id in records]
    header = dict(parts[0]["results"].run or {})
    header["selected"] = len(ordered)
    header["merged"] = {name: sum(((p["results"].run or {}).get("merged") or {}).get(name, 0) for p in parts)
                        for name in ("run", "kept")}
    write_results(where / "results.jsonl", header, ordered,   # as matrix.merge writes a release's results
                  {"counts": dict(Counter(r["outcome"] for r in ordered)), "merged": True})
    cases = {}
    for part in parts:
        cases.update(part["keys"].get("cases", {}))
    keys = {"fingerprint": parts[0]["keys"].get("fingerprint"), "cases": dict(sorted(cases.items()))}
    (where / "keys.json").write_text(json.dumps(keys, indent=1, sort_keys=True) + "\n")
    status = dict(parts[0]["status"])
    status["rc"] = max(p["status"]["rc"] for p in parts)
    status["seconds"] = round(sum(p["status"].get("seconds", 0) for p in parts), 1)
    status["install_seconds"] = max(p["status"].get("install_seconds", 0) for p in parts)
    status["cases_run"] = len(ordered) if limited else "all"
    (where / "status.json").write_text(json.dumps(status, indent=1, sort_keys=True) + "\n")
    if limited:
        (where / "stale.txt").write_text("".join(f"{r['id']}\n" for r in ordered))
    first_log = parts[0]["folder"] / version / "install.log"
    if first_log.is_file():
        shutil.copyfile(first_log, where / "install.log")
    with open(where / "run.log", "w", encoding="utf-8") as log:
        for part in parts:
            run_log = part["folder"] / version / "run.log"
            log.write(f"== {part['folder']} ==\n")
            log.write(run_log.read_text(encoding="utf-8", errors="replace") if run_log.is_file() else "(no run.log)\n")
    return len(ordered)


def merge_shards(folders: list[Path], out: Path, spec) -> dict[str, int]:
    """The shards in `folders` into the matrix folder `out` (new or empty): release -> cases merged."""
    if not folders:
        raise ShardError("no shard folders given")
    shards = _manifests(folders, spec)
    per_release = _pairs(shards, spec)
    if out.exists() and any(out.iterdir()):
        raise ShardError(f"{out}: not empty; the merge writes a new matrix folder (--matrix)")
    read = {version: [_read_release(folder, version, ids) for folder, _, ids in parts]
            for version, parts in per_release.items()}
    for version, parts in read.items():
        _same_install(version, parts)
    out.mkdir(parents=True, exist_ok=True)
    limited = bool(shards[0][1]["limited"])
    return {version: _write_release(out, version, parts, spec, limited) for version, parts in read.items()}
