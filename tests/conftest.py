"""Shared helpers for the project's own tests."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wsconf.isolation.confine import why_not

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "spec"
BRIDGE = REPO / "tools" / "mastra-bridge"


# Confinement runs an implementation under bwrap; where it cannot (no bwrap, a kernel that refuses
# its namespaces) the tests of the confined mode skip saying why (CI installs bwrap).
CANNOT_CONFINE = "cannot confine here: "
needs_confinement = pytest.mark.skipif(why_not() is not None, reason=f"{CANNOT_CONFINE}{why_not()}")


def path_without(program: str, folder: Path) -> str:
    """$PATH with `program` hidden: each folder holding it is replaced by `folder/<n>`, links to all
    its other entries. How the tests check a machine without bwrap on one that has it."""
    parts = []
    for n, entry in enumerate(os.environ.get("PATH", "").split(os.pathsep)):
        if not entry or not os.path.isfile(os.path.join(entry, program)):
            parts.append(entry)
            continue
        shim = folder / str(n)
        shim.mkdir(parents=True, exist_ok=True)
        for name in os.listdir(entry):
            if name != program and not (shim / name).exists():
                (shim / name).symlink_to(os.path.join(entry, name))
        parts.append(str(shim))
    return os.pathsep.join(parts)


def bridge_missing_reason() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed: the @mastra/core bridge cannot run"
    if not (BRIDGE / "node_modules" / "@mastra" / "core").exists():
        return "tools/mastra-bridge/node_modules is missing: run `make setup` (npm ci)"
    return None


def run_suite(tmp_path: Path, adapter: str, *extra: str, spec: Path = SPEC,
              paths: list[str] | None = None) -> tuple[int, list[dict], str]:
    """Run the conformance suite (or some case folders of it) in a child pytest; return exit code,
    per-case records, output. The child's TMPDIR is tmp_path/tmp, so its case trees are there
    (processes_left_in looks for processes in them)."""
    from wsconf.reports.table import load_results
    results = tmp_path / f"{adapter.replace(':', '_').replace('/', '_')[:40]}.jsonl"
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *(paths or [str(spec / "cases")]), "-q", "-p", "no:cacheprovider",
         "-p", "no:hypothesispytest",  # the cases use no hypothesis: its plugin would import it at the end
         "--wsconf-adapter", adapter, "--wsconf-results", str(results), *extra],
        capture_output=True, text=True, cwd=REPO, timeout=600, env={**os.environ, "TMPDIR": str(tmp)})
    records = load_results(results) if results.exists() else []
    return proc.returncode, records, proc.stdout + proc.stderr


def read_file_cases(paths: dict[str, str]) -> str:
    """A cases file of read_file.t.<name> cases, each reading its path once and expecting "fine" (the
    fakes' answer to everything they do not misbehave on)."""
    return "tool: read_file\ncases:\n" + "".join(f'''  - id: read_file.t.{name}
    title: {name}
    claims: [tools.inventory.id_prefix]
    needs: [filesystem]
    steps:
      - id: s1
        tool: mastra_workspace_read_file
        args: {{path: {path}}}
        expect: {{text: fine}}
''' for name, path in paths.items())


def results_file(path: Path, records: list[dict], run: dict | None = None) -> Path:
    """A results file as a run of the harness ends it: its records, then the end line with their
    counts and the sha256 of the lines before (what `wsconf report`, `compare` and `findings` check)."""
    from collections import Counter

    from wsconf.results.journal import write_results
    write_results(path, run, records, {"counts": dict(Counter(r["outcome"] for r in records)), "cases": len(records)})
    return path


def processes_in(folder: Path) -> list[str]:
    """Live processes whose working directory is (or was) inside folder (a zombie is dead
    already, waiting for its parent)."""
    found, prefix = [], f"{os.path.realpath(folder)}/"
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
            cmdline = open(f"/proc/{pid}/cmdline").read().replace(chr(0), " ")
        except OSError:
            continue
        if (cwd + "/").startswith(prefix) and state != "Z":
            found.append(f"{pid} {cwd} {cmdline}")
    return found


def processes_left_in(tmp_path: Path) -> list[str]:
    """After a run_suite: what still runs in its case trees (under its TMPDIR), once a killed
    process group has had up to 5 s to be reaped. Every background command, timed-out child and
    killed group of the run must be gone."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and processes_in(tmp_path / "tmp"):
        time.sleep(0.2)
    return processes_in(tmp_path / "tmp")


@pytest.fixture
def mini_spec(tmp_path: Path):
    """A spec folder with the real claims, capabilities and schemas, and no cases yet."""
    root = tmp_path / "spec"
    (root / "cases" / "read_file").mkdir(parents=True)
    for name in ("claims.yaml", "capabilities.yaml"):
        shutil.copy(SPEC / name, root / name)
    shutil.copytree(SPEC / "schema", root / "schema")
    return root


LONG = "long_running"
PROFILE = os.environ.get("WSCONF_TEST_PROFILE")  # a file: each test's wall and CPU time, one JSON line each


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """With WSCONF_TEST_PROFILE set (tools/bench: the test command's profile): the test's wall time and
    its CPU, this process's and its children's (a whole-suite run in a child is counted whole)."""
    if not PROFILE:
        yield
        return
    import json
    import resource

    def cpu() -> float:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    wall0, cpu0 = time.perf_counter(), cpu()
    yield
    with open(PROFILE, "a", encoding="utf-8") as out:
        out.write(json.dumps({"test": item.nodeid, "wall": round(time.perf_counter() - wall0, 3),
                              "cpu": round(cpu() - cpu0, 3)}) + "\n")


def pytest_configure(config):
    config.addinivalue_line("markers", f"{LONG}(seconds): a test of a minute or more (a whole-suite run in a child), "
                                       "with its time as measured once: under -n the long ones start first")


def pytest_collection_modifyitems(config, items):
    """Under -n N the long tests lead the N shares of tests xdist hands out first (--dist worksteal gives
    each worker a contiguous share of the collection and steals from its end), dealt longest first onto
    the share with the least so far: the longest work starts at once instead of ending the command with
    one worker busy and one idle. The seconds only order them; a stale figure costs balance, not a result."""
    # xdist's workers collect (and this hook orders) with numprocesses None: their count is in workerinput
    workers = (config.workerinput["workercount"] if hasattr(config, "workerinput")
               else getattr(config.option, "numprocesses", None))
    if not isinstance(workers, int) or workers < 2:
        return
    long = [item for item in items if item.get_closest_marker(LONG)]
    if not long:
        return
    rest = [item for item in items if not item.get_closest_marker(LONG)]
    shares, left = [], len(items)
    for i in range(workers):  # the sizes xdist's first distribution gives
        shares.append(left // (workers - i))
        left -= shares[-1]
    heads, loads = [[] for _ in range(workers)], [0.0] * workers
    for item in sorted(long, key=lambda item: -item.get_closest_marker(LONG).args[0]):
        i = loads.index(min(loads))
        heads[i].append(item)
        loads[i] += item.get_closest_marker(LONG).args[0]
    ordered = []
    for head, size in zip(heads, shares):
        take = max(0, size - len(head))
        ordered += head + rest[:take]
        rest = rest[take:]
    items[:] = ordered + rest
