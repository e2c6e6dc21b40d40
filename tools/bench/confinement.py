"""What the default confinement costs: the suite against a subprocess implementation, confined (the
default: two bwraps, user, mount and pid namespaces) and `--wsconf-unconfined`, in this checkout,
the two runs of each round next to each other and their order reversed every other round.

    .venv/bin/python -m tools.bench.confinement --rounds 3 --run "reference-protocol -n 2" --run "mastra -n 2" \
        [--write BENCHMARKS.md]

Printed (and, with --write, put between the confinement markers of the file, the rest left as it
is): per run, the medians of wall time and of the pytest tree's CPU for each mode, and the median
over rounds of the per-round ratio confined/unconfined; the load average around each round.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from . import suite as S

START, END = "<!-- confinement:start -->", "<!-- confinement:end -->"
MODES = {"confined": (), "unconfined": ("--wsconf-unconfined",)}


def _load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def measure(runs, rounds: int, log) -> tuple[dict, list]:
    samples = {run: {mode: [] for mode in MODES} for run in runs}
    loads = []
    for r in range(rounds):
        before = _load()
        for run in runs:
            for mode in (list(MODES) if r % 2 == 0 else list(reversed(MODES))):
                res = S.run_suite(run[0], run[1], extra=MODES[mode], wrap_bridge=False)
                samples[run][mode].append(res)
                log(f"round {r + 1} {label(run)} [{mode}]: {res['seconds']:.1f} s wall, CPU {res['cpu']:.1f} s "
                    f"({res['outcome']})")
        loads.append((before, _load()))
    return samples, loads


def label(run) -> str:
    return f"{run[0]} {'-n ' + str(run[1]) if run[1] else 'serial'}"


def section(samples: dict, loads: list, rounds: int, command: str) -> str:
    def med(xs, key):
        return statistics.median(x[key] for x in xs)

    def ratio(a, b, key):
        return statistics.median(x[key] / y[key] for x, y in zip(a, b) if y[key])

    lines = [START, "## What confinement costs", "",
             f"Written by `{command}` ({rounds} rounds, {time.strftime('%Y-%m-%d')}; load average (1, 5, 15 min) "
             "before/after each round: " + "; ".join(f"{a} / {b}" for a, b in loads) + "). Each round runs the "
             "suite confined (the default: two bwraps, user, mount and pid namespaces, the case folders handed to "
             "a uid of the implementation's own) and `--wsconf-unconfined`, next to each other, the order "
             "reversed every other round; the ratio is the median of the per-round ratios.", "",
             "| run | wall, confined | wall, unconfined | wall ratio | CPU, confined | CPU, unconfined | CPU ratio "
             "| outcomes (confined / unconfined) |", "|---|---|---|---|---|---|---|---|"]
    for run, by_mode in samples.items():
        on, off = by_mode["confined"], by_mode["unconfined"]
        lines.append(f"| {label(run)} | {med(on, 'seconds'):.1f} s | {med(off, 'seconds'):.1f} s "
                     f"| {ratio(on, off, 'seconds'):.2f} | {med(on, 'cpu'):.1f} s | {med(off, 'cpu'):.1f} s "
                     f"| {ratio(on, off, 'cpu'):.2f} | {on[-1]['outcome']} / {off[-1]['outcome']} |")
    lines += ["", "The CPU is the pytest tree's (harness, workers, implementation and its bwraps). Where the "
                  "cost comes from: starting an implementation is two bwraps more (once per worker, and again "
                  "after a case that broke it), and each case folder is handed to the implementation's uid "
                  "(an lchown per file the case lays out); the calls themselves cross no extra boundary.", END]
    return "\n".join(lines)


def put(path: Path, text: str) -> None:
    """Replace the confinement section of the file (or add it at the end)."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if START in old and END in old:
        before, rest = old.split(START, 1)
        new = before + text + rest.split(END, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text + "\n"
    path.write_text(new, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--run", action="append", default=[],
                    help='"ADAPTER" or "ADAPTER -n N", a subprocess adapter (default: reference-protocol -n 2)')
    ap.add_argument("--write", help="put the section into this file (BENCHMARKS.md)")
    args = ap.parse_args(argv)
    runs = []
    for text in args.run or ["reference-protocol -n 2"]:
        parts = text.split()
        runs.append((parts[0], int(parts[2]) if len(parts) == 3 and parts[1] == "-n" else None))
    samples, loads = measure(runs, args.rounds, lambda line: print(line, file=sys.stderr, flush=True))
    command = ".venv/bin/python -m tools.bench.confinement " + " ".join(
        [f"--rounds {args.rounds}"] + [f'--run "{label(r).replace(" serial", "")}"' for r in runs]
        + ([f"--write {os.path.basename(args.write)}"] if args.write else []))
    text = section(samples, loads, args.rounds, command)
    print(text)
    if args.write:
        put(Path(args.write), text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
