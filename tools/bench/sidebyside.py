"""The conformance suite timed in two checkouts (a baseline and a candidate, by default this one),
the two runs of each round next to each other, their order reversed every other round.

    .venv/bin/python -m tools.bench.sidebyside --baseline /tmp/base [--candidate /tmp/head] --rounds 2 \
        --run "reference" --run "reference -n 2" --run "mastra -n 2"

Each side runs with this checkout's venv and its own code first on the path (PYTHONPATH=its
conformance/ and reference/, its folder as the working directory): only the code differs. A
side's tools/mastra-bridge/node_modules must exist (a symbolic link to this checkout's will do).
A candidate worktree at a commit keeps the measurement apart from edits made meanwhile.
Printed: per run, the medians of wall time and CPU (the pytest tree's user + system, the bridge
included) and the median over rounds of the per-round ratio this/baseline, with the load average
before and after each round. CPU time is the steadier figure on a shared machine. With --floor, each
round also runs one quick case the same way (the start-up and shut-down of the run), and a second
table gives each side's floor, its longest case plus that start-up, and the wall time over it.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from . import suite as S


def _load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


QUICK_CASE = "read_file.binary.zip_metadata"  # a case of a few milliseconds: its run is the start-up


def run_in(checkout: Path, adapter: str, workers: int | None, extra=None) -> dict:
    """One suite run in checkout."""
    saved = dict(os.environ), S.REPO, S.BRIDGE
    os.environ["PYTHONPATH"] = f"{checkout / 'conformance'}:{checkout / 'reference'}"
    S.REPO, S.BRIDGE = checkout, checkout / "tools" / "mastra-bridge" / "bridge.mjs"
    try:
        return S.run_suite(adapter, workers, extra=extra)
    finally:
        os.environ.clear()
        os.environ.update(saved[0])
        S.REPO, S.BRIDGE = saved[1], saved[2]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", required=True, help="the other checkout (a worktree of the older commit)")
    ap.add_argument("--candidate", default=str(S.REPO), help="the newer checkout (default: this one)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--run", action="append", default=[],
                    help='"ADAPTER" or "ADAPTER -n N" (repeatable; default: reference serial)')
    ap.add_argument("--floor", action="store_true",
                    help="also time a run of one quick case (the start-up) and print each side's floor")
    args = ap.parse_args(argv)
    base, cand = Path(args.baseline).resolve(), Path(args.candidate).resolve()
    for folder in (base, cand):
        if not (folder / "conformance" / "wsconf").is_dir():
            ap.error(f"{folder} is not a wsconf checkout (no conformance/wsconf)")
    runs = []
    for text in args.run or ["reference"]:
        parts = text.split()
        runs.append((parts[0], int(parts[2]) if len(parts) == 3 and parts[1] == "-n" else None))
    samples: dict[tuple, dict[str, list[dict]]] = {r: {"this": [], "baseline": []} for r in runs}
    loads = []
    quick = Path(os.environ.get("TMPDIR", "/tmp")) / f"wsconf-bench-quick-{os.getpid()}.txt"
    quick.write_text(QUICK_CASE + "\n")
    startups: dict[tuple, dict[str, list[dict]]] = {r: {"this": [], "baseline": []} for r in runs}
    for r in range(args.rounds):
        before = _load()
        for run in runs:
            order = ["this", "baseline"] if r % 2 == 0 else ["baseline", "this"]
            for side in order:
                res = run_in(cand if side == "this" else base, *run)
                samples[run][side].append(res)
                label = f"{run[0]} {'-n ' + str(run[1]) if run[1] else 'serial'}"
                print(f"round {r + 1} {label} [{side}]: {res['seconds']:.1f} s wall, CPU {res['cpu']:.1f} s"
                      f" ({res['outcome']})", file=sys.stderr, flush=True)
                for case, message in sorted(res["failed"].items()):  # a failure is named, never only counted
                    print(f"  failed: {case}: {' '.join(message.split())[:300]}", file=sys.stderr, flush=True)
                if args.floor:
                    startups[run][side].append(run_in(cand if side == "this" else base, *run, extra=[
                        "--wsconf-unconfined", "--wsconf-ids", str(quick), "--wsconf-fresh", "0"]))
        loads.append((before, _load()))
    print(f"\nthis: {cand}; baseline: {base}; {args.rounds} rounds; load average (1, 5, 15 min) before/after each round: "
          + "; ".join(f"{a} / {b}" for a, b in loads) + "\n")
    print("| run | wall, this | wall, baseline | wall ratio | CPU, this | CPU, baseline | CPU ratio | outcomes (this / baseline) |")
    print("|---|---|---|---|---|---|---|---|")
    for run in runs:
        this, old = samples[run]["this"], samples[run]["baseline"]

        def med(xs, key):
            return statistics.median(x[key] for x in xs)

        def ratio(key):
            return statistics.median(a[key] / b[key] for a, b in zip(this, old) if b[key])
        label = f"{run[0]} {'-n ' + str(run[1]) if run[1] else 'serial'}"
        print(f"| {label} | {med(this, 'seconds'):.1f} s | {med(old, 'seconds'):.1f} s | {ratio('seconds'):.2f} "
              f"| {med(this, 'cpu'):.1f} s | {med(old, 'cpu'):.1f} s | {ratio('cpu'):.2f} "
              f"| {this[-1]['outcome']} / {old[-1]['outcome']} |")
    if args.floor:
        print("\n| run | side | longest case | start-up (one quick case) | floor | wall | wall / floor |")
        print("|---|---|---|---|---|---|---|")
        for run in runs:
            label = f"{run[0]} {'-n ' + str(run[1]) if run[1] else 'serial'}"
            for side in ("this", "baseline"):
                longest = statistics.median(max(x["durations"].values(), default=0.0) for x in samples[run][side])
                start = statistics.median(x["seconds"] for x in startups[run][side])
                wall = statistics.median(x["seconds"] for x in samples[run][side])
                print(f"| {label} | {side} | {longest:.1f} s | {start:.1f} s | {longest + start:.1f} s | {wall:.1f} s "
                      f"| {wall / (longest + start):.2f} |")
    quick.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
