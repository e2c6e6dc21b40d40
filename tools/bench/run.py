"""The benchmark runner: wsref against @mastra/core 1.71.0 and against GNU grep, side by side.

    .venv/bin/python -m tools.bench [--rounds 5] [--quick] [--only grep,list] [--no-suite] ...
    .venv/bin/python tools/bench/run.py ...          (the same)

See tools/bench/README.md. Everything is generated (seeded) into a scratch directory that is
removed afterwards; nothing is downloaded.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
if str(REPO) not in sys.path:  # `python tools/bench/run.py` from anywhere
    sys.path.insert(0, str(REPO))

from tools.bench import report as R  # noqa: E402
from tools.bench import suite as S  # noqa: E402
from tools.bench import workloads as W  # noqa: E402

BRIDGE_MODULES = REPO / "tools" / "mastra-bridge" / "node_modules" / "@mastra" / "core"
WORKER = HERE / "worker.py"
NODE_WORKER = HERE / "inside.mjs"


# -- the implementations, as variants of one workload -----------------------------------------

VARIANTS = {
    # key: (label, kind, impl, mode)
    "ref_in": ("wsref inside", "py", "wsref", "inside"),
    "up_in": ("mastra inside", "node", "mastra", "inside"),
    "ref_e2e": ("wsref e2e", "py", "reference", "e2e"),
    "proto_e2e": ("wsref protocol e2e", "py", "reference-protocol", "e2e"),
    "up_e2e": ("mastra e2e", "py", "mastra", "e2e"),
    "floor": ("GNU grep", "floor", None, None),
    "pyfloor": ("Python read floor", "pyfloor", None, None),
}
FLOORS = ("floor", "pyfloor")

# What any grep in Python must do at least: list the tree, lstat and read every file, look for the
# literal in its bytes (no decoding, no regex). Timed inside the process, as the "inside" variants.
PY_FLOOR = """
import os, sys, time
t0 = time.perf_counter()
n = 0
for dirpath, dirnames, filenames in os.walk("."):
    for name in filenames:
        path = os.path.join(dirpath, name)
        os.lstat(path)
        with open(path, "rb") as fh:
            n += b"ZEPHYR_NEEDLE_42" in fh.read()
print(time.perf_counter() - t0, n)
"""


def run_py_floor(cwd: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", PY_FLOOR], cwd=cwd, capture_output=True, text=True, timeout=600)
    seconds, files = proc.stdout.split()
    return {"ok": proc.returncode == 0, "seconds": float(seconds), "calls": 1, "errors": 0, "rss_peak_kb": None,
            "rss_base_kb": None, "digest": None, "head": f"{files} files hold the literal", "first_error": None}
UPSTREAM = {"up_in", "up_e2e"}


def upstream_missing_reason() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not BRIDGE_MODULES.exists():
        return "tools/mastra-bridge/node_modules is missing (run `make setup`)"
    return None


def run_floor(argv: list[str], cwd: Path) -> dict:
    """GNU grep, its output read through a pipe (grep short-cuts when stdout is /dev/null)."""
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    data = proc.stdout.read()
    proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    matches = data.count(b"\n")
    return {"ok": proc.returncode in (0, 1), "seconds": seconds, "calls": 1, "errors": 0, "rss_peak_kb": usage.ru_maxrss,
            "rss_base_kb": None, "digest": None, "head": f"{matches} output lines", "first_error": None}


def run_worker(kind: str, jobs: list[dict], scratch: Path) -> list[dict]:
    spec = scratch / f"job-{os.getpid()}-{time.monotonic_ns()}.json"
    spec.write_text(json.dumps({"jobs": jobs}))
    argv = ([sys.executable, str(WORKER), str(spec)] if kind == "py" else ["node", str(NODE_WORKER), str(spec)])
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, env=env, timeout=3600)
    spec.unlink()
    results = []
    for line in proc.stdout.splitlines():
        try:
            results.append(json.loads(line))
        except ValueError:
            pass
    if len(results) < len(jobs):
        tail = (proc.stderr or "")[-800:]
        fault = f"worker exited with {proc.returncode}: {tail}"
        results += [{"ok": False, "fault": fault, "name": j.get("name")} for j in jobs[len(results):]]
    return results


def job_for(wl: W.Workload, variant: str, base: Path, home: Path, tracemalloc: bool = False) -> dict:
    _, _, impl, mode = VARIANTS[variant]
    return {"name": wl.name, "impl": impl, "mode": mode, "root": str(base / wl.tree), "home": str(home),
            "workspace": wl.workspace, "warmup": wl.warmup, "calls": wl.calls, "tracemalloc": tracemalloc}


# -- statistics --------------------------------------------------------------------------------

def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt_s(x):
    if x is None:
        return "—"
    if x >= 10:
        return f"{x:.1f} s"
    if x >= 1:
        return f"{x:.2f} s"
    if x >= 0.001:
        return f"{x * 1000:.1f} ms"
    return f"{x * 1e6:.0f} µs"


def fmt_ratio(x):
    return "—" if x is None else f"{x:.2f}"


def fmt_mb(kb):
    return "—" if kb is None else f"{kb / 1024:.0f} MB"


def paired_ratio(samples: dict, a: str, b: str):
    """Median over rounds of a/b, each pair measured next to each other in the same round."""
    ra, rb = samples.get(a, []), samples.get(b, [])
    ratios = [x / y for x, y in zip(ra, rb) if x is not None and y]
    return statistics.median(ratios) if ratios else None


# -- the phases ----------------------------------------------------------------------------------

def timing_phase(wls, variants, base, home, scratch, rounds, quick, log):
    """Every workload in every variant, `rounds` times, the variants' order reversed every other round."""
    samples = {wl.name: {v: [] for v in variants} for wl in wls}
    detail = {wl.name: {v: [] for v in variants} for wl in wls}
    for r in range(rounds):
        order = variants if r % 2 == 0 else list(reversed(variants))
        if quick:  # one process per variant holding every workload: seconds, not minutes
            for v in order:
                todo = [wl for wl in wls if v not in FLOORS or wl.floor]
                for wl in todo:
                    W.reset_files(base, wl)
                if v == "floor":
                    res = [run_floor(wl.floor, base / wl.tree) for wl in todo]
                elif v == "pyfloor":
                    res = [run_py_floor(base / wl.tree) for wl in todo]
                else:
                    res = run_worker(VARIANTS[v][1], [job_for(wl, v, base, home) for wl in todo], scratch)
                for wl, res_ in zip(todo, res):
                    record(samples, detail, wl, v, res_, log)
            continue
        for wl in wls:
            for v in order:
                if v in FLOORS and not wl.floor:
                    continue
                W.reset_files(base, wl)
                if v == "floor":
                    res = run_floor(wl.floor, base / wl.tree)
                elif v == "pyfloor":
                    res = run_py_floor(base / wl.tree)
                else:
                    res = run_worker(VARIANTS[v][1], [job_for(wl, v, base, home)], scratch)[0]
                record(samples, detail, wl, v, res, log)
        log(f"round {r + 1}/{rounds} done")
    return samples, detail


def record(samples, detail, wl, v, res, log):
    detail[wl.name][v].append(res)
    if res.get("ok"):
        samples[wl.name][v].append(res["seconds"])
        if res.get("errors"):
            log(f"  {wl.name} [{v}]: {res['errors']} call(s) failed: {str(res.get('first_error'))[:200]}")
    else:
        samples[wl.name][v].append(None)
        log(f"  {wl.name} [{v}] FAILED: {str(res.get('fault'))[:400]}")


def memory_phase(base, home, scratch, info, variants, runs, quick, log):
    """read_file with a 100-line window from a small and a large file: does the peak grow with size?"""
    out = {}
    files = [("small.txt", info["mem"]["small.txt"], info["mem"]["small_lines"]),
             ("large.txt", info["mem"]["large.txt"], info["mem"]["large_lines"])]
    combos = [("ref_in", False), ("ref_in", True)] + ([("up_in", False)] if "up_in" in variants else [])
    wls = {name: W.Workload(f"mem_{name}", name, "mem",
                            [{"tool": W.tool("read_file"), "args": {"path": name, "offset": lines // 2, "limit": 100}}],
                            warmup=[{"tool": W.tool("read_file"), "args": {"path": name, "offset": 1, "limit": 1}}])
           for name, _, lines in files}
    for v, traced in combos:
        results = {name: [] for name, _, _ in files}
        for _ in range(runs):
            if quick:  # both files in one process
                got = run_worker(VARIANTS[v][1], [job_for(wls[n], v, base, home, tracemalloc=traced) for n in results], scratch)
                for n, res in zip(results, got):
                    results[n].append(res)
            else:
                for n in results:
                    results[n].append(run_worker(VARIANTS[v][1], [job_for(wls[n], v, base, home, tracemalloc=traced)],
                                                 scratch)[0])
        for name, size, _ in files:
            ok = [x for x in results[name] if x.get("ok")]
            if not ok:
                log(f"  memory {name} [{v}] FAILED: {results[name][0].get('fault')}")
            out[(name, v, traced)] = {
                "size": size,
                "rss_growth_kb": median([x["rss_peak_kb"] - x["rss_base_kb"] for x in ok
                                         if x.get("rss_peak_kb") is not None and x.get("rss_base_kb") is not None]),
                "rss_peak_kb": median([x.get("rss_peak_kb") for x in ok]),
                "tracemalloc_peak": median([x.get("tracemalloc_peak") for x in ok]),
                "seconds": median([x["seconds"] for x in ok]),
            }
    return out


# -- report ----------------------------------------------------------------------------------------

def machine() -> dict:
    def sh(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, shell=True).stdout.strip()
        except OSError:
            return "?"
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": sh("nproc"), "cpu": cpu, "mem": sh("free -h | awk '/^Mem:/ {print $2\" total, \"$7\" available\"}'"),
            "python": platform.python_version(), "node": sh("node --version") or "—",
            "grep": sh("grep --version | head -1"), "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "kernel": platform.release()}


def render(wls, variants, samples, detail, memory, suite, suite_outcomes, info, args, mach) -> tuple[str, dict]:
    lines = []
    targets = {}
    has_up = "up_in" in variants
    lines.append(f"Machine: {mach['cpu']}, {mach['nproc']} cores, {mach['mem']}; Python {mach['python']}, "
                 f"Node {mach['node']}, {mach['grep']}; Linux {mach['kernel']}; {mach['date']}")
    lines.append(f"Rounds: {args.rounds} ({'quick' if args.quick else 'full'} scale); medians; ratio = median over rounds "
                 "of the per-round ratio (both measured next to each other).")
    lines.append("")
    g = info["grep"]
    lines.append(f"Workloads: grep tree {g['files']} files / {g['bytes'] / 1e6:.1f} MB; list tree "
                 f"{info['list']['entries']} entries; read file {info['files']['big.txt'] / 1e6:.1f} MB "
                 f"({info['files']['lines']} lines); edit/write file {info['files']['edit.txt'] / 1e6:.1f} MB.")
    lines.append("")
    head = ["workload", "wsref inside", "mastra inside", "ratio inside", "wsref e2e", "wsref protocol e2e",
            "mastra e2e", "ratio e2e", "ratio protocol", "GNU grep", "wsref/grep", "peak RSS wsref / mastra (inside)",
            "same output"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    slower = []
    overhead = []
    for wl in wls:
        s = samples[wl.name]
        d = detail[wl.name]
        med = {v: median(s.get(v, [])) for v in variants}
        r_in = paired_ratio(s, "ref_in", "up_in") if has_up else None
        r_e2e = paired_ratio(s, "ref_e2e", "up_e2e") if has_up else None
        r_proto = paired_ratio(s, "proto_e2e", "up_e2e") if has_up else None
        r_floor = paired_ratio(s, "ref_in", "floor") if wl.floor and "floor" in variants else None

        def rss(v):
            ok = [x for x in d.get(v, []) if x.get("ok")]
            return median([x.get("rss_peak_kb") for x in ok])
        digests = {v: {x.get("digest") for x in d.get(v, []) if x.get("ok") and x.get("digest")}
                   for v in variants if v not in FLOORS}
        flat = set().union(*digests.values()) if digests else set()
        same = "yes" if len(flat) == 1 else ("—" if not flat else "NO")
        row = [wl.title, fmt_s(med.get("ref_in")), fmt_s(med.get("up_in")), fmt_ratio(r_in), fmt_s(med.get("ref_e2e")),
               fmt_s(med.get("proto_e2e")), fmt_s(med.get("up_e2e")), fmt_ratio(r_e2e), fmt_ratio(r_proto),
               fmt_s(med.get("floor")),
               fmt_ratio(r_floor), f"{fmt_mb(rss('ref_in'))} / {fmt_mb(rss('up_in'))}", same]
        lines.append("| " + " | ".join(row) + " |")
        if r_in is not None and r_in > 1.0:
            slower.append(f"{wl.name} inside {r_in:.2f}")
        if r_e2e is not None and r_e2e > 1.0:
            slower.append(f"{wl.name} e2e {r_e2e:.2f}")
        if r_proto is not None and r_proto > 1.0:
            slower.append(f"{wl.name} protocol {r_proto:.2f}")
        calls = next((x.get("calls") for x in d.get("ref_in", []) + d.get("up_in", []) if x.get("ok")), None)
        over = []
        for e2e, inside in (("ref_e2e", "ref_in"), ("proto_e2e", "ref_in"), ("up_e2e", "up_in")):
            a, b = med.get(e2e), med.get(inside)
            over.append(None if a is None or b is None or not calls else (a - b) / calls)
        overhead.append((wl.title, calls, over, med.get("ref_in")))
        if r_floor is not None:
            targets.setdefault("grep_floor", []).append((wl.name, r_floor))
    if any(any(x is not None for x in o) for _, _, o, _ in overhead):
        lines.append("")
        lines.append("Protocol overhead per call (median end to end minus median inside, divided by the calls; "
                     "rows of one call longer than 0.5 s are left out, their difference is noise):")
        lines.append("")
        lines.append("| workload | calls | wsref in-process adapter | wsref over the protocol | mastra bridge |")
        lines.append("|---|---|---|---|---|")
        for title, calls, over, inside in overhead:
            if calls == 1 and (inside is None or inside > 0.5):
                continue  # one long call: the difference of two medians is noise, not overhead
            lines.append(f"| {title} | {calls} | " + " | ".join(
                "—" if x is None else (f"{x * 1000:+.2f} ms" if abs(x) < 1 else f"{x:+.2f} s") for x in over) + " |")
    if suite:
        lines.append("")
        lines.append("| conformance suite (end to end) | median | rounds | last outcome |")
        lines.append("|---|---|---|---|")
        for key, xs in suite.items():
            lines.append(f"| {key} | {fmt_s(median(xs))} | {len(xs)} | {suite_outcomes.get(key, '')} |")
        for n in ("serial", "-n 2"):
            r = paired_ratio(suite, f"reference {n}", f"mastra {n}")
            if r is not None:
                lines.append(f"| ratio reference/mastra, {n} | {r:.2f} | | |")
                if r > 1.0:
                    slower.append(f"suite {n} {r:.2f}")
    if memory:
        lines.append("")
        lines.append("| read_file, 100-line window | file | wsref peak RSS growth | wsref tracemalloc peak | "
                     "mastra peak RSS growth |")
        lines.append("|---|---|---|---|---|")
        for name in ("small.txt", "large.txt"):
            a = memory.get((name, "ref_in", False), {})
            t = memory.get((name, "ref_in", True), {})
            u = memory.get((name, "up_in", False), {})
            tm = t.get("tracemalloc_peak")
            lines.append(f"| {name} | {a.get('size', 0) / 1e6:.1f} MB | {fmt_mb(a.get('rss_growth_kb'))} | "
                         f"{'—' if tm is None else f'{tm / 1024:.0f} KiB'} | {fmt_mb(u.get('rss_growth_kb'))} |")
    # targets
    lines.append("")
    lines.append("Targets:")
    if has_up:
        lines.append(f"- wsref at least as fast as mastra on every workload (ratio <= 1.0): "
                     f"{'MET' if not slower else 'MISSED (' + '; '.join(slower) + ')'}")
        targets["as_fast"] = not slower
    gf = targets.get("grep_floor", [])
    if gf:
        worst = max(gf, key=lambda x: x[1])
        ok = worst[1] <= 3.0
        lines.append(f"- grep within 3x of GNU grep: {'MET' if ok else 'MISSED'} (worst {worst[0]} {worst[1]:.1f}x; "
                     + ", ".join(f"{n} {r:.1f}x" for n, r in gf) + ")")
        targets["grep_floor_met"] = ok
    if memory:
        small = memory.get(("small.txt", "ref_in", True), {}).get("tracemalloc_peak")
        large = memory.get(("large.txt", "ref_in", True), {}).get("tracemalloc_peak")
        if small and large:
            ok = large <= 1.25 * small + 256 * 1024
            lines.append(f"- read_file memory does not grow with the file for a small window: {'MET' if ok else 'MISSED'} "
                         f"(tracemalloc peak {small / 1024:.0f} KiB for {memory[('small.txt', 'ref_in', True)]['size'] / 1e6:.1f} MB, "
                         f"{large / 1024:.0f} KiB for {memory[('large.txt', 'ref_in', True)]['size'] / 1e6:.1f} MB)")
            targets["read_memory"] = ok
    if suite and suite.get("reference -n 2"):
        m = median(suite["reference -n 2"])
        lines.append(f"- the whole suite against wsref in under 30 s with -n 2: {'MET' if m < 30 else 'MISSED'} ({m:.1f} s)")
        targets["suite_30s"] = m < 30
    return "\n".join(lines), targets


def rerender(path: Path, args) -> int:
    data = json.loads(path.read_text())
    args.rounds, args.quick = data["rounds"], data["quick"]
    scale = W.QUICK if data["quick"] else W.FULL
    scale.read_lines = data["info"]["files"]["lines"]
    wls = [wl for wl in W.workloads(scale) if wl.name in data["samples"]]
    variants = [v for v in VARIANTS if any(v in data["samples"][wl.name] for wl in wls)]
    memory = {}
    for key, value in data["memory"].items():
        name, v, traced = key.split("|")
        memory[(name, v, traced == "True")] = value
    text, _ = render(wls, variants, data["samples"], data["detail"], memory, {}, {}, data["info"], args,
                     data["machine"])
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n")
    if args.write:
        R.write_document(Path(args.write), R.document(data, text, ".venv/bin/" + data.get("command", "python -m tools.bench")))
    return 0


def _load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=None, help="rounds of every workload (default 5; 1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="tiny workloads, one process per variant: a smoke run")
    ap.add_argument("--only", default="", help="comma-separated workload names or groups (grep, list, read, write, exec)")
    ap.add_argument("--no-upstream", action="store_true", help="skip @mastra/core (also automatic when it is not installed)")
    ap.add_argument("--no-e2e", action="store_true", help="only the inside timings (and GNU grep)")
    ap.add_argument("--no-memory", action="store_true", help="skip the read_file memory check")
    ap.add_argument("--suite", action="store_true", help="run the conformance-suite timings even with --quick/--only")
    ap.add_argument("--no-suite", action="store_true", help="skip the conformance-suite timings")
    ap.add_argument("--suite-rounds", type=int, default=3, help="rounds of the four suite runs (default 3)")
    ap.add_argument("--no-test-command", action="store_true", help="skip timing the project's test command")
    ap.add_argument("--write", help="write the whole document (BENCHMARKS.md) here")
    ap.add_argument("--seed", type=int, default=W.SEED)
    ap.add_argument("--workdir", help="generate the workloads here (default: a temporary directory, removed after)")
    ap.add_argument("--json", help="also write the raw samples to this file")
    ap.add_argument("--markdown", help="also write the table to this file")
    ap.add_argument("--from-json", help="print the table again from a --json file (no run)")
    args = ap.parse_args(argv)
    args.rounds = args.rounds or (1 if args.quick else 5)
    if args.from_json:
        return rerender(Path(args.from_json), args)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    missing = upstream_missing_reason()
    upstream = not args.no_upstream and missing is None
    if not args.no_upstream and missing:
        log(f"wsconf bench: the upstream part is skipped: {missing}")
    variants = ["ref_in", "up_in", "ref_e2e", "proto_e2e", "up_e2e", "floor", "pyfloor"]
    if not upstream:
        variants = [v for v in variants if v not in UPSTREAM]
    if args.no_e2e:
        variants = [v for v in variants if not v.endswith("_e2e")]
    if shutil.which("grep") is None:
        variants.remove("floor")

    load_before = _load()
    scale = W.QUICK if args.quick else W.FULL
    created = args.workdir is None
    work = Path(args.workdir or tempfile.mkdtemp(prefix="wsconf-bench-"))
    base, home, scratch = work / "w", work / "home", work / "jobs"
    try:
        t0 = time.perf_counter()
        info = W.generate(base, scale, args.seed)
        home.mkdir(exist_ok=True)
        scratch.mkdir(exist_ok=True)
        log(f"workloads generated in {time.perf_counter() - t0:.1f} s under {work}: {json.dumps(info)}")
        wls = W.workloads(scale)
        only = [x.strip() for x in args.only.split(",") if x.strip()]
        if only:
            wls = [wl for wl in wls if wl.name in only or wl.group in only]
        samples, detail = timing_phase(wls, variants, base, home, scratch, args.rounds, args.quick, log)
        memory = {} if args.no_memory or (only and "memory" not in only and "read" not in only) else \
            memory_phase(base, home, scratch, info, variants, 1 if args.quick else min(args.rounds, 3), args.quick, log)
        run_suite = args.suite or not (args.no_suite or args.quick or only)
        full = not (args.quick or only)
        suite = S.suite_phase(args.suite_rounds, upstream, log) if run_suite else {}
        spec_loading = S.spec_loading(args.rounds) if full else {}
        tests = S.test_command(log) if full and not args.no_test_command else None
        mach = machine()
        text, targets = render(wls, variants, samples, detail, memory, {}, {}, info, args, mach)
        print(text)
        if args.markdown:
            Path(args.markdown).write_text(text + "\n")
        data = {"machine": mach, "info": info, "rounds": args.rounds, "quick": args.quick, "samples": samples,
                "detail": detail, "memory": {"|".join(map(str, k)): v for k, v in memory.items()},
                "suite": suite, "suite_outcomes": {}, "targets": targets, "spec_loading": spec_loading,
                "test_command": tests, "load_before": load_before, "load_after": _load(),
                "command": " ".join(["python -m tools.bench", *(argv if argv is not None else sys.argv[1:])])}
        if args.write:
            R.write_document(Path(args.write), R.document(data, text, ".venv/bin/" + data["command"]))
            log(f"wrote {args.write}")
        if args.json:
            Path(args.json).write_text(json.dumps(data, indent=1, default=str))
        faults = [wl.name for wl in wls for v in variants for x in detail[wl.name].get(v, []) if not x.get("ok")]
        return 1 if faults else 0
    finally:
        if created:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
