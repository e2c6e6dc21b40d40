"""`wsconf states pin`: the root's states pinned from runs of the upstream (spec/states.py says the
format; isolation/root_state.py how an entry reads).

Each run's results keep, per case, the root as the harness laid it out and its change after the
workspace opened and after each step (`observed`). For every case that passed in every run given,
the states of all runs are merged moment by moment: an entry the same in all is kept, parts that
differ become `*` (a file's size or hash, a link's target; `*` alone when even the kind differs),
and an entry that only some runs had gets a leading `?`. A case that did not pass in every run is
not pinned (said so), nor one whose workspace does not open.
"""
from __future__ import annotations

import fnmatch
import json
import os
from pathlib import Path

from ..isolation.root_state import PATTERN, apply, delta, pinned_glob
from ..results.records import load_results
from ..spec.states import FORMAT, load_states, states_file


def _merge_entries(entries: list[str | None]) -> str | None:
    present = [e for e in entries if e is not None]
    if not present:
        return None
    first = present[0]
    if all(e == first for e in present):
        merged = first
    elif all(e[:2] == first[:2] == "f:" for e in present):
        parts = [e.split(":", 2) for e in present]
        merged = "f:" + ":".join(p0 if all(p[i] == p0 for p in parts) else "*"
                                 for i, p0 in ((1, parts[0][1]), (2, parts[0][2])))
    elif all(e[:2] == first[:2] == "l:" for e in present):
        merged = "l:*"
    else:
        merged = "*"
    return _racing(merged) if len(present) < len(entries) or any(e.startswith("?") for e in present) else merged


def _racing(entry: str) -> str:
    """An entry only some runs saw: optional, and a file's bytes too (the process that writes it
    may be caught halfway: execute_command.cwd.relative_already_under's where.txt seen empty)."""
    entry = entry.lstrip("?")
    return "?f:*:*" if entry.startswith("f:") else "?" + entry


def _random_names(rest: list[dict[str, str]]) -> dict[str, str]:
    """The entries only some runs had. Where every run made as many entries of one kind in one
    folder, under names that share a beginning and an end (mount-519zmr, mount-7bpb1r), they are
    names made at random: pinned as that many `<folder>/<beginning>*<end>#<n>` patterns. Anything
    else is an entry that only some runs had: `?`."""
    groups: dict[tuple, list[list[str]]] = {}
    for i, state in enumerate(rest):
        for path in state:
            folder, _, name = path.rpartition("/")
            groups.setdefault((folder, state[path][:1]), [[] for _ in rest])[i].append(path)
    merged = {}
    for (folder, _), per_run in sorted(groups.items()):
        names = [p.rpartition("/")[2] for paths in per_run for p in paths]
        head, tail = os.path.commonprefix(names), os.path.commonprefix([n[::-1] for n in names])[::-1]
        counts = {len(paths) for paths in per_run}
        # only up to a separator: two random names may share their first letters by chance
        head = head[:max(head.rfind(c) for c in "-_.~") + 1] if any(c in head for c in "-_.~") else ""
        tail = tail[min((tail.find(c) for c in "-_." if c in tail), default=len(tail)):]
        if len(counts) == 1 and len(rest) > 1 and (head or tail) and len(set(names)) > 1:
            stem = PATTERN + (folder + "/" if folder else "") + head + "*" + tail
            # one entry for all: which random name holds which content differs from run to run
            entry = _merge_entries([rest[i][p] for i, paths in enumerate(per_run) for p in paths])
            for n in range(1, counts.pop() + 1):
                merged[f"{stem}#{n}"] = entry
        else:
            for paths, state in zip(per_run, rest):
                for path in paths:
                    merged[path] = _merge_entries([s.get(path) for s in rest])
    return merged


def _moments(observed: dict) -> list[tuple[str | None, dict]]:
    """(step id or None for open, the whole state then), in order."""
    state = observed["setup"]
    out = []
    state = apply(state, observed["open"])
    out.append((None, state))
    for step_id, change in observed["steps"].items():
        state = apply(state, change)
        out.append((step_id, state))
    return out


def merge_runs(observed_runs: list[dict], witnesses: list[dict] = (), widened: list | None = None) -> dict:
    """One case's pinned states from its observed states in several runs. A witness (a run of another
    implementation that passes) only makes an entry optional where it lacked it or had one the runs
    did not (a background process a little faster or slower); each such entry goes into widened."""
    setup = observed_runs[0]["setup"]
    runs = [_moments(o) for o in observed_runs]
    steps = [step for step, _ in runs[0]]
    if any([s for s, _ in r] != steps for r in runs):
        raise ValueError("the runs did not take the same steps")
    witnesses = [w for w in witnesses if [s for s, _ in _moments(w)] == steps]
    pinned = {"open": None, "steps": {}}
    previous = setup
    for i, step in enumerate(steps):
        states = [r[i][1] for r in runs]
        merged = {}
        everywhere = set.intersection(*(set(s) for s in states))
        for path in sorted(everywhere):
            merged[path] = _merge_entries([s[path] for s in states])
        merged.update(_random_names([{p: e for p, e in s.items() if p not in everywhere} for s in states]))
        globs = [pinned_glob(p) for p in merged if p.startswith(PATTERN)]
        for witness in witnesses:
            seen = _moments(witness)[i][1]
            for path in sorted(set(seen) | set(merged)):
                if path.startswith(PATTERN) or (path in merged) == (path in seen) or merged.get(path, "").startswith("?") \
                        or any(fnmatch.fnmatchcase(path, g) for g in globs):  # a random name: the pattern has it
                    continue
                merged[path] = _racing(merged.get(path) or seen[path])
                if widened is not None:
                    widened.append(f"{step or 'open'}: {path} {'absent' if path in merged and path not in seen else 'present'} "
                                   "in a witness run: optional")
        change = delta(previous, merged)
        if step is None:
            pinned["open"] = change
        else:
            pinned["steps"][step] = change
        previous = merged
    return pinned


def pin(spec, results_files: list[str], write: bool, log=print, witness_files: list[str] = ()) -> dict[str, dict]:
    """case id -> pinned states from the runs; written into spec/states/ when write."""
    runs = [load_results(path) for path in results_files]
    witness_runs = [load_results(path) for path in witness_files]
    pinned: dict[str, dict] = {}
    skipped = []
    for case in spec.cases:
        records = [r.records.get(case.id) for r in runs]
        if any(r is None or r.get("outcome") != "passed" for r in records):
            skipped.append(f"{case.id}: not passed in every run")
            continue
        observed = [r.get("observed") for r in records]
        if any(not o or o.get("open") is None for o in observed):
            continue  # the workspace did not open (open_error): nothing to pin
        witnesses = [r.records.get(case.id) for r in witness_runs]
        witnesses = [w["observed"] for w in witnesses if w and w.get("outcome") in ("passed", "failed")
                     and (w.get("observed") or {}).get("open") is not None]
        widened: list[str] = []
        try:
            pinned[case.id] = merge_runs(observed, witnesses, widened)
        except ValueError as exc:
            skipped.append(f"{case.id}: {exc}")
        for line in widened:
            log(f"widened by a witness: {case.id}: {line}")
    for line in skipped:
        log(f"not pinned: {line}")
    if write:
        source = f"{runs[0].implementation} {runs[0].version} ({len(runs)} runs" + (
            f"; entries absent or present in {len(witness_runs)} run(s) of {witness_runs[0].label} optional)"
            if witness_runs else ")")
        _write(spec, pinned, source)
    return pinned


def _write(spec, pinned: dict[str, dict], source: str) -> None:
    by_file: dict[Path, dict] = {}
    for case in spec.cases:
        if case.id in pinned:
            case_file = spec.root.parent / case.file
            by_file.setdefault(states_file(spec.root, case_file), {})[case.id] = pinned[case.id]
    known = {c.id for c in spec.cases}
    for path, cases in sorted(by_file.items()):
        kept, _ = load_states(path)  # the cases not pinned this time keep their states
        cases = {cid: s for cid, s in {**kept, **cases}.items() if cid in known}
        cases = dict(sorted(cases.items()))
        path.parent.mkdir(parents=True, exist_ok=True)
        body = {"format": FORMAT, "pinned_from": source, "cases": cases}
        # one case a line: a diff shows which case's states changed
        lines = [f"  {json.dumps(cid)}: {json.dumps(states, sort_keys=True, ensure_ascii=True)}"
                 for cid, states in cases.items()]
        path.write_text('{"format": %d, "pinned_from": %s, "cases": {\n' % (FORMAT, json.dumps(body["pinned_from"]))
                        + ",\n".join(lines) + "\n}}\n", encoding="utf-8")
