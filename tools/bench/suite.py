"""The conformance suite and the project's tests, timed: wall clock, CPU split between the harness
and the bridge, per-case durations, how the time scales with workers and cases, and what that
predicts for more cores and for a CI matrix.

Every run is a fresh `python -m pytest` child; its CPU is the children's rusage of this process
(the pytest tree), and the bridge's is what tools/bench/cputime.py records around each bridge
process (the mastra runs use the `cmd:` adapter with that wrapper, which is the same bridge).
"""
from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BRIDGE = REPO / "tools" / "mastra-bridge" / "bridge.mjs"

# The tool families of the case-count runs: about an eighth, a third and all of the cases.
SUBSETS = [("read_file", ["read_file"]), ("read_file + filesystem + workspace",
                                           ["read_file", "filesystem", "workspace"]), ("all", [])]


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_suite(adapter: str, workers: int | None, tools=(), scratch: Path | None = None, extra=None,
              wrap_bridge: bool = True) -> dict:
    """One suite run: {seconds, cpu, bridge_cpu, outcome, durations: {case id: s}, tools: {id: tool}}.
    extra: the pytest arguments that say how it runs (default: unconfined, as the series before
    confinement measured it; confinement.py compares); wrap_bridge false runs the mastra adapter as
    it is (no bridge CPU)."""
    scratch = Path(scratch or tempfile.mkdtemp(prefix="wsconf-bench-suite-"))
    results = scratch / f"results-{time.monotonic_ns()}.jsonl"
    bridge_log = scratch / f"bridge-cpu-{time.monotonic_ns()}.txt"
    name = adapter
    if adapter == "mastra" and wrap_bridge:  # the same bridge, its CPU recorded by the wrapper
        name = f"cmd:{sys.executable} {HERE / 'cputime.py'} {bridge_log} node {BRIDGE}"
    argv = [sys.executable, "-m", "pytest", "spec/cases", "-q", "-p", "no:cacheprovider",
            "--wsconf-adapter", name, "--wsconf-results", str(results),
            *(("--wsconf-unconfined",) if extra is None else extra)]
    if workers:
        argv += ["-n", str(workers)]
    for tool in tools:
        argv += ["--wsconf-tool", tool]
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - t0
    cpu = _children_cpu() - cpu0
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    records = [json.loads(x) for x in results.read_text().splitlines()] if results.exists() else []
    records = [r for r in records if "id" in r]  # not the run's header line
    bridge = sum(float(x) for x in bridge_log.read_text().split()) if bridge_log.exists() else None
    for path in (results, bridge_log):
        path.unlink(missing_ok=True)
    return {"seconds": seconds, "cpu": cpu, "bridge_cpu": bridge, "outcome": lines[-1] if lines else "?",
            "ok": proc.returncode == 0, "durations": {r["id"]: r["duration"] for r in records},
            "failed": {r["id"]: (r.get("message") or "")[:300] for r in records if r["outcome"] in ("failed", "error")},
            "tools": {r["id"]: r["tool"] for r in records}}


def suite_phase(rounds: int, upstream: bool, log) -> dict:
    """Reference and upstream, serial and -n 2, alternated; then the reference at -n 1, 2, 4 and on
    fewer cases (one round each: they show a shape, the alternated runs give the medians)."""
    variants = [("reference", None), ("reference", 2)] + ([("mastra", None), ("mastra", 2)] if upstream else [])
    runs: dict[str, list[dict]] = {}
    for r in range(rounds):
        for adapter, workers in (variants if r % 2 == 0 else list(reversed(variants))):
            key = f"{adapter} {'-n ' + str(workers) if workers else 'serial'}"
            res = run_suite(adapter, workers)
            runs.setdefault(key, []).append(res)
            share = "" if res["bridge_cpu"] is None else f", bridge CPU {res['bridge_cpu']:.1f} s"
            log(f"  suite {key}: {res['seconds']:.1f} s, CPU {res['cpu']:.1f} s{share} ({res['outcome']})")
            for case, message in res["failed"].items():
                log(f"    {case}: {message}")
    scaling = {}
    for workers in (1, 2, 4):
        res = run_suite("reference", workers)
        scaling[workers] = res
        log(f"  suite reference -n {workers}: {res['seconds']:.1f} s ({res['outcome']})")
    subsets = []
    for label, tools in SUBSETS[:-1]:
        res = run_suite("reference", None, tools)
        subsets.append((label, res))
        log(f"  suite reference serial, {label}: {res['seconds']:.1f} s ({res['outcome']})")
    return {"runs": runs, "scaling": scaling, "subsets": subsets}


def lpt_makespan(durations: list[float], workers: int) -> float:
    """Longest-first greedy onto `workers` (what work stealing approaches): the busiest worker's sum."""
    loads = [0.0] * workers
    for d in sorted(durations, reverse=True):
        i = loads.index(min(loads))
        loads[i] += d
    return max(loads)


def shards(durations: dict[str, float], tools: dict[str, str], count: int) -> list[tuple[list[str], float]]:
    """Tool families packed into `count` shards by their summed case durations (longest first)."""
    by_tool: dict[str, float] = {}
    for case, d in durations.items():
        by_tool[tools[case]] = by_tool.get(tools[case], 0.0) + d
    bins: list[tuple[list[str], float]] = [([], 0.0) for _ in range(count)]
    for tool, d in sorted(by_tool.items(), key=lambda kv: -kv[1]):
        i = min(range(count), key=lambda k: bins[k][1])
        bins[i] = (bins[i][0] + [tool], bins[i][1] + d)
    return sorted(bins, key=lambda b: -b[1])


def test_command(log) -> dict:
    """`make test`'s pytest (the venv's python, -n 2 --dist worksteal), once, with its slowest tests."""
    argv = [sys.executable, "-m", "pytest", "-n", "2", "--dist", "worksteal", "tests", "-q", "-p", "no:cacheprovider",
            "--durations=12", "-rf"]
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=3600,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    seconds = time.perf_counter() - t0
    slowest = re.findall(r"^([\d.]+)s (?:call|setup|teardown)\s+(\S+)$", proc.stdout, re.M)
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    log(f"  test command: {seconds:.1f} s ({lines[-1] if lines else '?'})")
    failed = re.findall(r"^FAILED (\S+)", proc.stdout, re.M)
    return {"seconds": seconds, "cpu": _children_cpu() - cpu0, "outcome": lines[-1] if lines else "?",
            "ok": proc.returncode == 0, "slowest": [(float(s), name) for s, name in slowest], "failed": failed}


SPEC_LOAD = """
import time, sys
t0 = time.perf_counter()
from wsconf.spec import load_spec
t1 = time.perf_counter()
spec = load_spec()
t2 = time.perf_counter()
print(f"{t1 - t0} {t2 - t1} {len(spec.cases)}")
"""


def spec_loading(rounds: int) -> dict:
    """load_spec() in a fresh process: without a cache (libyaml + validation) and from the cache."""
    out = {"cold": [], "warm": [], "import": []}
    with tempfile.TemporaryDirectory() as cache:
        subprocess.run([sys.executable, "-c", SPEC_LOAD], cwd=REPO, capture_output=True, timeout=120,
                       env={**os.environ, "WSCONF_CACHE_DIR": cache})  # fills the cache
        for _ in range(rounds):
            for key, env in (("cold", {"WSCONF_CACHE_DIR": "off"}), ("warm", {"WSCONF_CACHE_DIR": cache})):
                proc = subprocess.run([sys.executable, "-c", SPEC_LOAD], cwd=REPO, capture_output=True, text=True,
                                      env={**os.environ, **env}, timeout=120)
                imported, loaded, _ = proc.stdout.split()
                out[key].append(float(loaded))
                if key == "warm":
                    out["import"].append(float(imported))
    return out
