"""Where the test command's time goes: `make test`'s pytest, run once with each test's wall time and CPU
recorded (tests/conftest.py, WSCONF_TEST_PROFILE), summed per test file, with the command's floor.

    .venv/bin/python -m tools.bench.testprofile [--write BENCHMARKS.md] [--from PROFILE.jsonl --wall S --cpu S]

A test's CPU is its worker's own and its children's (a whole-suite run in a child process counts whole).
The floor on N cores is the larger of the command's CPU over N and its longest test: no order of the
tests can end sooner, whatever runs in parallel. --write replaces the section between
<!-- testcommand:start --> and <!-- testcommand:end --> (appended when missing).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
START, END = "<!-- testcommand:start -->", "<!-- testcommand:end -->"


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def run(profile: Path) -> dict:
    argv = [sys.executable, "-m", "pytest", "-n", "2", "--dist", "worksteal", "tests", "-q", "-p", "no:cacheprovider"]
    load, cpu0, t0 = _load(), _children_cpu(), time.perf_counter()
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=3600,
                          env={**os.environ, "WSCONF_TEST_PROFILE": str(profile)})
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    return {"wall": time.perf_counter() - t0, "cpu": _children_cpu() - cpu0, "outcome": lines[-1] if lines else "?",
            "load_before": load, "load_after": _load()}


def section(records: list[dict], command: dict, cores: int = 2) -> str:
    by_file = defaultdict(lambda: [0, 0.0, 0.0])
    for r in records:
        entry = by_file[r["test"].split("::")[0]]
        entry[0] += 1
        entry[1] += r["wall"]
        entry[2] += r["cpu"]
    tests_cpu = sum(r["cpu"] for r in records)
    longest = max(records, key=lambda r: r["wall"])
    floor = max(command["cpu"] / cores, longest["wall"])
    out = [START, "## Where the test command's time goes (issue 37)", "",
           f"Written by `python -m tools.bench.testprofile --write BENCHMARKS.md`: `pytest -n 2 --dist worksteal tests` once, "
           f"each test's wall time and CPU (its worker's and its children's) recorded. The command: "
           f"**{command['wall']:.0f} s** wall, **{command['cpu']:.0f} s CPU** ({command['outcome']}; load average "
           f"{command['load_before']} before, {command['load_after']} after). Its floor on {cores} cores is the larger of "
           f"its CPU over {cores} ({command['cpu'] / cores:.0f} s) and its longest test ({longest['wall']:.0f} s, "
           f"`{longest['test']}`): **{floor:.0f} s**, what no order of the tests can beat on this machine.", "",
           "| test file | tests | wall (sum) | CPU | share of the tests' CPU |", "|---|---:|---:|---:|---:|"]
    for name, (count, wall, cpu) in sorted(by_file.items(), key=lambda kv: -kv[1][2])[:15]:
        out.append(f"| `{name}` | {count} | {wall:.0f} s | {cpu:.0f} s | {100 * cpu / tests_cpu:.0f}% |")
    rest = sorted(by_file.items(), key=lambda kv: -kv[1][2])[15:]
    if rest:
        out.append(f"| {len(rest)} other files | {sum(v[0] for _, v in rest)} | {sum(v[1] for _, v in rest):.0f} s "
                   f"| {sum(v[2] for _, v in rest):.0f} s | {100 * sum(v[2] for _, v in rest) / tests_cpu:.0f}% |")
    out += ["", "| slowest tests by CPU | wall | CPU |", "|---|---:|---:|"]
    for r in sorted(records, key=lambda r: -r["cpu"])[:12]:
        out.append(f"| `{r['test']}` | {r['wall']:.0f} s | {r['cpu']:.0f} s |")
    out += ["", END]
    return "\n".join(out)


def write(document: Path, text: str) -> None:
    old = document.read_text(encoding="utf-8") if document.exists() else ""
    found = re.search(re.escape(START) + ".*?" + re.escape(END), old, re.S)
    new = old[:found.start()] + text + old[found.end():] if found else old.rstrip("\n") + "\n\n" + text + "\n"
    document.write_text(new, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", type=Path, default=None, help="the document whose test-command section is replaced")
    ap.add_argument("--from", dest="source", type=Path, default=None,
                    help="a profile already recorded (with --wall, --cpu and --outcome of its command)")
    ap.add_argument("--wall", type=float)
    ap.add_argument("--cpu", type=float)
    ap.add_argument("--outcome", default="?")
    args = ap.parse_args(argv)
    if args.source:
        profile = args.source
        command = {"wall": args.wall, "cpu": args.cpu, "outcome": args.outcome, "load_before": "?", "load_after": "?"}
    else:
        profile = Path(tempfile.mkdtemp(prefix="wsconf-testprofile-")) / "profile.jsonl"
        command = run(profile)
    records = [json.loads(line) for line in profile.read_text(encoding="utf-8").splitlines() if line.strip()]
    text = section(records, command)
    print(text)
    if args.write:
        write(args.write, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
