"""How long the report site takes to build, and how big its pages are, round after round.

    .venv/bin/python -m tools.bench.site --rounds 5 [--matrix DIR ...] [RESULTS.jsonl ...] \
        [--baseline DIR] [--write BENCHMARKS.md]

Each round runs `wsconf site RESULTS... --matrix DIR -o <temporary folder>` as a child process and
takes its wall time and its CPU time (user + system), then counts the pages (.html files), the
largest file and the whole size. The digests of the matrix's results are cached beside them, so
the rounds measure a build from a matrix already read once (what `make report` does after `make
matrix`); reading every release's results without the cache is timed apart, once ("cold").
The target (issue 35): a site of over 2,000 pages built in under 30 s, no page over 1 MB.

--matrix may be given more than once (a partial matrix and a bigger one, say): each is built in every
round. --baseline DIR runs the site of another checkout in the same rounds on the first matrix, side
by side (its conformance/ first on PYTHONPATH), e.g. `git archive a80c4e5 conformance reference spec
| tar -x -C DIR`; an older `wsconf site` takes the matrix alone (--matrix), which is what it is given.
The per-round ratio of this checkout's time to the baseline's is reported as a median.
--write FILE puts the section between the `<!-- site:start -->` and `<!-- site:end -->` markers of
FILE (appended at the end the first time).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .xfail import write_section

REPO = Path(__file__).resolve().parents[2]
MARKERS = ("<!-- site:start -->", "<!-- site:end -->")
TARGET_SECONDS, TARGET_PAGES, PAGE_LIMIT = 30.0, 2000, 1_000_000


def _load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def build(checkout: Path, args: list[str], out: Path) -> dict:
    """One `wsconf site` in a child process: wall and CPU seconds, and what it wrote."""
    env = dict(os.environ, PYTHONPATH=f"{checkout / 'conformance'}:{checkout / 'reference'}")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "wsconf.cli", *args, "-o", str(out)], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=1800)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{checkout}: wsconf {' '.join(args)} exited {proc.returncode}:\n{proc.stderr[-3000:]}")
    files = [p for p in out.rglob("*") if p.is_file()]
    largest = max(files, key=lambda p: p.stat().st_size)
    return {"wall": wall, "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "pages": sum(p.suffix == ".html" for p in files), "bytes": sum(p.stat().st_size for p in files),
            "largest": (largest.stat().st_size, str(largest.relative_to(out))), "broken": len(_broken_links(out))}


def _broken_links(out: Path) -> list[str]:
    """This checkout's check of a built site (after the timing: its own time is not the build's)."""
    sys.path.insert(0, str(REPO / "conformance"))
    from wsconf.reports.site.links import broken_links
    return broken_links(out)


def cold_read(matrix: Path) -> tuple[float, int]:
    """Reading every release's results without the digests' cache: seconds, releases."""
    sys.path.insert(0, str(REPO / "conformance"))
    from wsconf.results.digest import load_digest
    files = sorted(matrix.glob("*/results.jsonl"))
    started = time.monotonic()
    for path in files:
        load_digest(path, cache=False)
    return time.monotonic() - started, len(files)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="*", help="results files (default: the repository's results/*.jsonl)")
    ap.add_argument("--matrix", action="append", default=[],
                    help="a release matrix folder; repeat it to build from each in turn (default: none)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline", default=None,
                    help="another checkout whose `wsconf site` runs beside this one, on the first matrix")
    ap.add_argument("--write", default=None, help="put the section into this Markdown file")
    args = ap.parse_args(argv)
    args.argv = argv if argv is not None else sys.argv[1:]
    results = [str(Path(p).resolve()) for p in args.results] or sorted(str(p) for p in (REPO / "results").glob("*.jsonl"))
    matrices = [Path(m).resolve() for m in args.matrix]
    runs = [(f"this, {_name(m)}", REPO, ["site", *results] + (["--matrix", str(m)] if m else ["--no-matrix"]))
            for m in matrices or [None]]
    if args.baseline and matrices:  # an older `wsconf site` takes the matrix alone
        runs.insert(1, (f"baseline, {_name(matrices[0])}", Path(args.baseline).resolve(), ["site", "--matrix", str(matrices[0])]))
    samples: dict[str, list[dict]] = {label: [] for label, _, _ in runs}
    loads = []
    work = Path(tempfile.mkdtemp(prefix="wsconf-bench-site-"))
    try:
        for _, checkout, run_args in runs:  # a first build fills the digests' cache; not counted
            build(checkout, run_args, work / "warmup")
            shutil.rmtree(work / "warmup")
        for n in range(args.rounds):
            loads.append(_load())
            for label, checkout, run_args in (runs if n % 2 == 0 else list(reversed(runs))):
                out = work / f"round-{n}"
                samples[label].append(build(checkout, run_args, out))
                shutil.rmtree(out)
                last = samples[label][-1]
                print(f"round {n + 1} {label}: {last['wall']:.1f} s wall, {last['cpu']:.1f} s CPU, {last['pages']} pages",
                      file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    cold = [(m, *cold_read(m)) for m in matrices]
    text = render(args, results, samples, loads, cold)
    print(text)
    if args.write:
        write_section(Path(args.write), text, MARKERS)
    return 0


def _name(matrix: Path | None) -> str:
    if matrix is None:
        return "no matrix"
    return f"{matrix} ({len(list(matrix.glob('*/results.jsonl')))} releases)"


def render(args, results: list[str], samples: dict, loads: list[str], cold: list) -> str:
    lines = [MARKERS[0], "## The report site", "",
             "Written by `" + " ".join(["python -m tools.bench.site", *args.argv]) + f"`: `wsconf site` over "
             f"{len(results)} results file(s) and each matrix named, {args.rounds} rounds, the runs' order turning "
             "every round; the digests of a matrix's results are cached beside them (a first build, not counted, "
             "fills the cache).", "",
             "| run | wall (median) | CPU (median) | pages | largest file | whole site | broken links |",
             "|---|---|---|---|---|---|---|"]
    for label, runs in samples.items():
        lines.append(f"| {label} | {statistics.median(s['wall'] for s in runs):.1f} s | "
                     f"{statistics.median(s['cpu'] for s in runs):.1f} s | {runs[-1]['pages']} | "
                     f"{runs[-1]['largest'][0] / 1e6:.2f} MB ({runs[-1]['largest'][1]}) | {runs[-1]['bytes'] / 1e6:.0f} MB | "
                     f"{max(s['broken'] for s in runs)} |")
    labels = list(samples)
    if len(labels) > 1 and labels[1].startswith("baseline"):
        this, base = samples[labels[0]], samples[labels[1]]
        lines += ["", f"This checkout to the baseline, per round, on the same matrix: "
                      f"{statistics.median(a['wall'] / b['wall'] for a, b in zip(this, base)):.2f}x the wall time, "
                      f"{statistics.median(a['cpu'] / b['cpu'] for a, b in zip(this, base)):.2f}x the CPU time (medians)."]
    for matrix, seconds, releases in cold:
        lines += ["", f"Reading {matrix}'s {releases} results files without the cache (cold, once): {seconds:.1f} s."]
    ours = [runs for label, runs in samples.items() if label.startswith("this")]
    wall = max(statistics.median(s["wall"] for s in runs) for runs in ours)
    cpu = max(statistics.median(s["cpu"] for s in runs) for runs in ours)
    largest = max(s["largest"] for runs in ours for s in runs)
    pages = min(runs[-1]["pages"] for runs in ours)
    broken = max(s["broken"] for runs in ours for s in runs)
    met = wall < TARGET_SECONDS and pages > TARGET_PAGES and largest[0] <= PAGE_LIMIT and broken == 0
    lines += ["", f"Target: over {TARGET_PAGES:,} pages in under {TARGET_SECONDS:.0f} s, no file over 1 MB, no broken "
                  f"link: {'met' if met else 'NOT met'} (this checkout's slowest run: {pages} pages, {wall:.1f} s wall "
                  f"and {cpu:.1f} s CPU, the largest file {largest[0] / 1e6:.2f} MB, {broken} broken links). Load "
                  "averages (1, 5, 15 min) before "
                  f"each round: {'; '.join(loads)}.", MARKERS[1]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
