"""The release matrix on a CI matrix of N runners: its wall time estimated from measured durations.

    .venv/bin/python -m tools.bench.matrix --durations MATRIX_FOLDER [--runners 8,16,64] [--write BENCHMARKS.md]

The pairs of every stable release (1.11.0-1.71.0) and every case of this checkout's spec are dealt as
`wsconf matrix run --shard I/N` deals them (wsconf.releases.shards), with the per-case durations of
the matrix folder(s) given (a case a release did not run takes its median over the releases that
did). Each runner is then costed as it works: per release it holds, a fresh install of that release
and the start-up of `wsconf run`, then its cases on -n WORKERS (longest first onto the workers,
which xdist's scheduling approaches). Both per-release costs are measured by this script: the
install in an empty cache (npm's too) of --install-release, the start-up as the median wall time of
`wsconf run` of one short case on an installed release (--rounds times). The estimate of N runners
is its slowest runner; the merge job is not in it.

--write puts the section between the `<!-- matrix:start -->` and `<!-- matrix:end -->` markers of
the file (tools.bench --write keeps it).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .suite import lpt_makespan
from .xfail import write_section

MARKERS = ("<!-- matrix:start -->", "<!-- matrix:end -->")
REPO = Path(__file__).resolve().parents[2]
QUICK_CASE = "read_file.binary.bin_metadata"   # one short case: what a run costs besides its cases


def measure_install(version: str) -> float:
    """Seconds to install one release as a fresh CI runner does: empty wsconf and npm caches."""
    with tempfile.TemporaryDirectory(prefix="wsconf-bench-install-") as tmp:
        env = {**os.environ, "XDG_CACHE_HOME": f"{tmp}/cache", "npm_config_cache": f"{tmp}/npm"}
        started = time.monotonic()
        subprocess.run([sys.executable, "-c", f"from wsconf.adapters.release_install import release_dir; "
                        f"release_dir({version!r})"], env=env, check=True, timeout=900, capture_output=True)
        return time.monotonic() - started


def measure_startup(version: str, rounds: int, workers: str) -> float:
    """Median wall time of `wsconf run` of one short case on an installed release."""
    wsconf = str(Path(sys.executable).with_name("wsconf"))
    times = []
    with tempfile.TemporaryDirectory(prefix="wsconf-bench-startup-") as tmp:
        (Path(tmp) / "ids.txt").write_text(QUICK_CASE + "\n")
        for _ in range(rounds):
            started = time.monotonic()
            subprocess.run([wsconf, "run", "--adapter", f"mastra@{version}", "--all-versions", "--no-expectations",
                            "--ids", f"{tmp}/ids.txt", "-n", workers, "--results", f"{tmp}/r.jsonl"],
                           check=True, timeout=600, capture_output=True, cwd=tmp)
            times.append(time.monotonic() - started)
    return statistics.median(times)


def runner_seconds(pairs: dict[str, list[str]], durations, per_release: float, workers: int) -> float:
    """A runner's wall time: per release it holds, the install and start-up, then its cases on the workers."""
    return sum(per_release + lpt_makespan([durations.of(v, i) for i in ids], workers) for v, ids in pairs.items())


def estimate(versions, case_ids, durations, runners: list[int], per_release: float, workers: int) -> list[dict]:
    from wsconf.releases.shards import deal
    rows = []
    for count in runners:
        dealt = deal(versions, case_ids, durations, count, workers)   # as `matrix run --shard I/N -n WORKERS` deals
        walls = [runner_seconds(shard, durations, per_release, workers) for shard in dealt]
        rows.append({"runners": count, "slowest": max(walls), "median": statistics.median(walls),
                     "total": sum(walls), "releases": max(len(shard) for shard in dealt)})
    return rows


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min" if seconds >= 90 else f"{seconds:.0f} s"


def section(args, measured_releases: dict, rows: list[dict], single: float, install: float, startup: float,
            cases: int, releases: int, longest: tuple[float, str], loads: tuple[str, str]) -> str:
    lines = [MARKERS[0], "## The release matrix on a CI matrix", "",
             f"Written by `python -m tools.bench.matrix {' '.join(args.argv)}` ({time.strftime('%Y-%m-%d')}): "
             f"{releases} stable releases x {cases} cases of this spec dealt as `wsconf matrix run --shard I/N` deals "
             "them, each runner costed as it works (per release it holds: a fresh install and the start-up of "
             f"`wsconf run`; then its cases on -n {args.workers}, longest first). The estimate for N runners is "
             "its slowest runner; the merge job (download, `wsconf matrix merge`, ranges, changelog, site) is not "
             "in it.", "",
             "Where the figures come from:", "",
             f"- **case durations**: each record's `duration` in {', '.join(f'`{d}`' for d in args.durations)}: "
             f"full runs of {len(measured_releases)} releases ({', '.join(measured_releases)}), recorded by earlier "
             "`wsconf matrix run`s of those releases on this shared 2-core machine under load (how many workers "
             "and releases at once is not recorded in the folder; so with waits for a core); a release not among them takes each "
             "case's median over those that ran it, a case none ran the default estimate "
             "(`wsconf.releases.shards.DEFAULT_CASE_SECONDS`);",
             f"- **a fresh install of a release**: {install:.1f} s (`{args.install_release}` into empty wsconf and "
             "npm caches: the registry questions, npm install, the bridge copied);",
             f"- **the start-up of a run**: {startup:.1f} s (median of {args.rounds} runs of `wsconf run --adapter "
             f"mastra@{args.startup_release}` with one short case, -n {args.workers}).", "",
             f"Load average (1, 5, 15 min) while the install and start-up were measured: {loads[0]} before, "
             f"{loads[1]} after; on a quiet machine both are shorter.", "",
             "| measured release | cases | case time | longest case |", "|---|---:|---:|---:|"]
    for version, (count, total, top) in measured_releases.items():
        lines.append(f"| {version} | {count} | {total:.0f} s | {top:.1f} s |")
    lines += ["", "| runners | estimated wall time (slowest runner) | median runner | runner time in all | "
              "most releases on one runner |", "|---:|---:|---:|---:|---:|",
              f"| 1 (the same work on one machine, releases one after another) | {_minutes(single)} | | "
              f"{_minutes(single)} | {releases} |"]
    for row in rows:
        lines.append(f"| {row['runners']} | {_minutes(row['slowest'])} | {_minutes(row['median'])} | "
                     f"{_minutes(row['total'])} | {row['releases']} |")
    lines += ["", f"The floor is one release's install and start-up plus its longest case ({longest[1]}, "
              f"{longest[0]:.1f} s): {_minutes(install + startup + longest[0])}. Past about one runner per release "
              "each runner holds one release or part of one, and every runner pays the install and start-up: more "
              "runners than releases shorten the wall time only as far as the slowest release's cases spread "
              f"over the workers.", MARKERS[1]]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--durations", action="append", required=True, metavar="PATH",
                    help="matrix folder(s) or results files whose case durations are measured")
    ap.add_argument("--runners", default="8,16,64")
    ap.add_argument("--workers", type=int, default=2, help="-n of each runner's `wsconf run` (the workflow's: 2)")
    ap.add_argument("--install-release", default="1.65.0", help="the release installed into an empty cache")
    ap.add_argument("--install-seconds", type=float, default=None, help="skip measuring the install: this many seconds")
    ap.add_argument("--startup-release", default="1.71.0", help="an installed release to time the start-up on")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--write", default=None, help="put the section into this Markdown file (between its markers)")
    args = ap.parse_args(argv)
    args.argv = list(argv if argv is not None else sys.argv[1:])
    from wsconf.adapters.release_install import stable_releases
    from wsconf.releases.history import load_matrix
    from wsconf.releases.shards import load_durations
    from wsconf.spec import load_spec

    def log(message):
        print(message, file=sys.stderr, flush=True)
    durations = load_durations(args.durations)
    measured = {}
    for source in args.durations:
        for version, results in (load_matrix(source).items() if Path(source).is_dir() else []):
            values = [r["duration"] for r in results.records.values() if isinstance(r.get("duration"), (int, float))]
            measured[version] = (len(values), sum(values), max(values, default=0.0))
    case_ids = [c.id for c in load_spec().cases]
    versions = stable_releases()
    before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    install = args.install_seconds if args.install_seconds is not None else measure_install(args.install_release)
    log(f"install of {args.install_release}: {install:.1f} s")
    startup = measure_startup(args.startup_release, args.rounds, str(args.workers))
    log(f"start-up of a run: {startup:.1f} s")
    per_release = install + startup
    loads = (before, " ".join(f"{x:.2f}" for x in os.getloadavg()))
    rows = estimate(versions, case_ids, durations, [int(n) for n in args.runners.split(",")], per_release, args.workers)
    single = runner_seconds({v: case_ids for v in versions}, durations, per_release, args.workers)
    longest = max((durations.of(v, i), f"{i} on {v}") for v in versions for i in case_ids)
    text = section(args, measured, rows, single, install, startup, len(case_ids), len(versions), longest, loads)
    if args.write:
        write_section(Path(args.write), text, MARKERS)
        log(f"wrote the section into {args.write}")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
