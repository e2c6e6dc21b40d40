"""The benchmark (tools/bench) in --quick mode on tiny workloads, so it cannot rot unnoticed.

The numbers of a quick run mean nothing (one round, workloads of a few kilobytes); what is checked
is that every workload runs in every variant without a fault and that wsref and @mastra/core give
the same output on each.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO, bridge_missing_reason

WORKLOADS = ["grep, literal", "grep, regex", "grep, case-insensitive", "grep, 2 context lines",
             "list_files, no filter", "list_files, .gitignore", "list_files, glob + .gitignore",
             "read_file 0.5 MB, offset/limit", "read_file 0.5 MB, token window", "edit_file", "write_file",
             "execute_command", "file_stat"]


def run_bench(*extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.bench", "--quick", *extra], cwd=REPO, capture_output=True,
                          text=True, timeout=300)


def rows(table: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()
            if line.startswith("| ") and not line.startswith("| workload")]


def check_table(proc: subprocess.CompletedProcess, upstream: bool, workloads=WORKLOADS, memory=True) -> list[list[str]]:
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "FAILED" not in proc.stderr, proc.stderr[-3000:]
    table = proc.stdout
    for name in workloads:
        assert name in table, f"{name!r} missing from\n{table}"
    main_rows = [r for r in rows(table) if len(r) == 13]
    assert len(main_rows) == len(workloads), table
    for r in main_rows:
        assert r[1] != "—" and r[4] != "—" and r[5] != "—", f"a wsref timing is missing: {r}"
        assert (r[2] != "—" and r[6] != "—") == upstream, f"upstream timings should {'' if upstream else 'not '}be there: {r}"
    for r in main_rows:
        if r[0].startswith("grep"):
            assert r[9] != "—", f"GNU grep did not run: {r}"
    assert ("read_file memory does not grow" in table) == memory, table
    return main_rows


def test_quick_bench_reference_and_grep_floor():
    """wsref inside, through the in-process adapter and over the protocol, and GNU grep, with
    --no-upstream. Where the bridge is installed, the test below runs every workload in these
    variants too (next to the upstream's), so here a grep and a protocol workload are enough to
    show that the switch leaves the upstream out; without the bridge, every workload runs here."""
    if bridge_missing_reason() is None:
        check_table(run_bench("--no-upstream", "--only", "grep_literal,stat_500"), upstream=False,
                    workloads=["grep, literal", "file_stat"], memory=False)
    else:
        check_table(run_bench("--no-upstream"), upstream=False)


@pytest.mark.skipif(bridge_missing_reason() is not None, reason=bridge_missing_reason() or "")
@pytest.mark.long_running(120)
def test_quick_bench_against_the_upstream():
    """The same with @mastra/core inside (tools/bench/inside.mjs) and through the bridge: every
    workload gives the same output in every implementation."""
    for r in check_table(run_bench(), upstream=True):
        assert r[12] == "yes", f"wsref and the upstream disagree on {r[0]}: {r}"


def test_bench_help_documents_the_command():
    proc = subprocess.run([sys.executable, "tools/bench/run.py", "--help"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "--quick" in proc.stdout and "--rounds" in proc.stdout


def test_the_document_states_targets_scaling_and_shards_from_the_data():
    """BENCHMARKS.md is rendered from a run's data alone: synthetic data, known verdicts."""
    sys.path.insert(0, str(REPO))
    from tools.bench.report import document
    from tools.bench.suite import lpt_makespan, shards
    assert lpt_makespan([3, 3, 2, 2, 2], 2) == 7 and lpt_makespan([5, 1, 1], 8) == 5
    durations = {"a.1": 1.0, "a.2": 0.5, "b.1": 2.0, "c.1": 0.25}
    tools = {"a.1": "a", "a.2": "a", "b.1": "b", "c.1": "c"}
    assert shards(durations, tools, 2) == [(["b"], 2.0), (["a", "c"], 1.75)]
    run = {"seconds": 4.5, "cpu": 4.0, "bridge_cpu": None, "outcome": "4 passed", "ok": True,
           "durations": durations, "tools": tools}
    data = {"machine": {"cpu": "x", "nproc": "2", "mem": "m", "python": "3", "node": "20", "grep": "g",
                        "kernel": "k", "date": "d"},
            "samples": {"grep_literal": {"ref_in": [0.2, 0.2], "up_in": [1.0, 1.0], "floor": [0.05, 0.05],
                                         "pyfloor": [0.08, 0.08]},
                        "grep_regex": {"ref_in": [0.6], "up_in": [1.0], "floor": [0.05], "pyfloor": [0.08]}},
            "suite": {"runs": {"reference serial": [run], "reference -n 2": [{**run, "seconds": 3.0}]},
                      "scaling": {1: {**run, "seconds": 5.0}, 2: {**run, "seconds": 3.0}},
                      "subsets": [("a", {**run, "durations": {"a.1": 1.0, "a.2": 0.5}, "seconds": 2.0})]},
            "spec_loading": {"cold": [1.5], "warm": [0.03], "import": [0.08]},
            "test_command": {"seconds": 95.0, "cpu": 150.0, "outcome": "9 passed", "ok": True,
                             "slowest": [(40.0, "tests/t.py::test_x")]}}
    text = document(data, "(table)", "python -m tools.bench")
    lines = text.splitlines()

    def row(start):
        (found,) = [line for line in lines if line.startswith(start)]
        return found
    assert "**met**" in row("| grep literal: wsref/upstream <= 0.25 | 0.20 |")
    assert "**missed**" in row("| grep regex: wsref/upstream <= 0.5 | 0.60 |")
    assert "**missed**" in row("| grep literal: wsref inside <= 3x GNU `grep -rn` | 4.0x |")
    assert "**met**" in row("| spec loading <= 0.1 s per process | 30 ms")
    assert "**met**" in row("| suite reference serial <= 8 s | 4.50 s |")
    assert "**missed**" in row("| `make test` (pytest -n 2 tests) <= 90 s | 95.0 s |")
    # the longest case (2 s) plus the start-up measured with as many workers as cores (-n 2: 3 s - 2 s)
    assert row("| 8 (estimate) |").startswith("| 8 (estimate) | 3.00 s | 2.00 s | 1.00 s (as measured at -n 2)")
    assert row("| 1 | b |") and row("| 2 (a) | 2.00 s |")


def test_the_expected_failure_bench_alters_exactly_its_entries_and_keeps_its_section(tmp_path):
    """tools/bench/xfail.py: the copy of the spec changes the expected text of exactly --entries cases
    of the tool; the section says met or missed from the per-round ratios, and BENCHMARKS.md's other
    writer keeps it."""
    sys.path.insert(0, str(REPO))
    import argparse

    from tools.bench import report, xfail
    from wsconf.spec import load_spec
    ids = xfail.altered_spec(tmp_path / "spec", "file_stat", 7)
    original, altered = load_spec(REPO / "spec"), load_spec(tmp_path / "spec")
    changed = [c.id for c in altered.cases if c.raw != original.cases_by_id[c.id].raw]
    assert changed == ids and len(ids) == 7
    first = next(s for s in altered.cases_by_id[ids[0]].steps if "expect" in s)
    assert first["expect"]["text"].endswith(xfail.ALTERED)

    def run(seconds, outcomes):
        return {"seconds": seconds, "outcomes": outcomes, "last": ""}
    data = {"samples": {"pass": [run(10, {"passed": 53}), run(12, {"passed": 53})],
                        "xfail": [run(10.5, {"passed": 46, "xfail": 7}), run(13.8, {"passed": 46, "xfail": 7})],
                        "fail": [run(11, {"failed": 7, "passed": 46}), run(12, {"failed": 7, "passed": 46})]},
            "loads": [("1 1 1", "2 2 2")] * 2, "ids": ids}
    args = argparse.Namespace(argv=["--rounds", "2"], tool="file_stat", rounds=2, entries=7, baseline=None)
    text = xfail.section(data, None, args)
    assert "| this | xfail | 12.15 s | 1.10 | 46 passed, 7 xfail |" in text  # ratios 1.05 and 1.15
    assert "within 10% of the same run passing: 1.10 (**met**)" in text
    data["samples"]["xfail"][0]["seconds"] = 11.5
    assert "1.15 (**missed**)" in xfail.section(data, None, args)
    doc = tmp_path / "BENCHMARKS.md"
    doc.write_text("# old\n")
    xfail.write_section(doc, text)
    report.write_document(doc, "# Benchmarks\n\nnew body")
    assert doc.read_text() == "# Benchmarks\n\nnew body\n\n" + text


def test_the_matrix_estimate_costs_each_runner_as_it_works_and_its_section_is_kept(tmp_path):
    from tools.bench import matrix as bench_matrix
    from tools.bench import report
    from wsconf.releases.shards import Durations
    durations = Durations({("1.11.0", "a"): 10.0, ("1.11.0", "b"): 4.0, ("1.11.0", "c"): 4.0,
                           ("1.12.0", "a"): 2.0, ("1.12.0", "b"): 2.0, ("1.12.0", "c"): 2.0})
    # a runner holding both releases: 100 s each, then 1.11.0's cases on 2 workers (10 | 4 + 4), 1.12.0's (2 + 2 | 2)
    assert bench_matrix.runner_seconds({"1.11.0": ["a", "b", "c"], "1.12.0": ["a", "b", "c"]}, durations, 100.0, 2) == 214.0
    rows = bench_matrix.estimate(["1.11.0", "1.12.0"], ["a", "b", "c"], durations, [1, 2], 100.0, 2)
    assert [(r["runners"], r["slowest"], r["releases"]) for r in rows] == [(1, 214.0, 2), (2, 110.0, 1)]
    doc = tmp_path / "BENCHMARKS.md"
    section = f"{bench_matrix.MARKERS[0]}\n## The release matrix\n{bench_matrix.MARKERS[1]}\n"
    doc.write_text("# old\n\n" + section)
    report.write_document(doc, "# Benchmarks\n\nnew body")
    assert doc.read_text() == "# Benchmarks\n\nnew body\n\n" + section


def test_the_site_bench_states_the_target_from_its_samples_and_keeps_its_section(tmp_path):
    import argparse

    from tools.bench import report, site, xfail

    def sample(wall, cpu, largest=400_000):
        return {"wall": wall, "cpu": cpu, "pages": 2985, "bytes": 60_000_000, "largest": (largest, "tool/read_file.html"),
                "broken": 0}
    args = argparse.Namespace(argv=["--rounds", "3"], rounds=3)
    samples = {"this, m (3 releases)": [sample(9, 6), sample(12, 7), sample(10, 6.5)],
               "baseline, m (3 releases)": [sample(30, 20), sample(24, 21), sample(40, 26)],
               "this, big (64 releases)": [sample(14, 9), sample(15, 9), sample(13, 8)]}
    text = site.render(args, ["a.jsonl"], samples, ["1 1 1"] * 3, [])
    assert "| this, m (3 releases) | 10.0 s | 6.5 s | 2985 | 0.40 MB (tool/read_file.html) | 60 MB | 0 |" in text
    assert "0.30x the wall time, 0.30x the CPU time" in text  # medians of 9/30, 12/24, 10/40 and 6/20, 7/21, 6.5/26
    assert "no broken link: met (this checkout's slowest run: 2985 pages, 14.0 s wall" in text
    samples["this, big (64 releases)"][1]["broken"] = 2
    assert ": NOT met (" in site.render(args, ["a.jsonl"], samples, ["1 1 1"] * 3, [])
    samples["this, big (64 releases)"][1]["broken"] = 0
    samples["this, big (64 releases)"][0]["largest"] = (1_200_000, "case/x.html")
    assert ": NOT met (" in site.render(args, ["a.jsonl"], samples, ["1 1 1"] * 3, [])
    doc = tmp_path / "BENCHMARKS.md"
    doc.write_text("# old\n")
    xfail.write_section(doc, text, site.MARKERS)
    report.write_document(doc, "# Benchmarks\n\nnew body")  # the whole document again keeps the site's section
    assert doc.read_text() == "# Benchmarks\n\nnew body\n\n" + text


def test_the_whole_document_written_again_keeps_every_marked_section(tmp_path):
    """Sections written by the other tools or by hand from their runs (between <!-- NAME:start -->
    and <!-- NAME:end -->) stay, in their order; a section the new text holds is not doubled."""
    from tools.bench import report
    judge = "<!-- judge:start -->\n## The judge\n\n| a | b |\n<!-- judge:end -->"
    site = "<!-- site:start -->\n## The site\n<!-- site:end -->"
    doc = tmp_path / "BENCHMARKS.md"
    doc.write_text(f"# old\n\nold body\n\n{judge}\n\nprose between\n\n{site}\n")
    report.write_document(doc, "# Benchmarks\n\nnew body")
    assert doc.read_text() == f"# Benchmarks\n\nnew body\n\n{judge}\n\n{site}\n"
    report.write_document(doc, f"# Benchmarks\n\n{site}\n")
    assert doc.read_text() == f"# Benchmarks\n\n{site}\n\n{judge}\n"


def test_the_test_command_profile_sums_per_file_states_its_floor_and_keeps_the_document(tmp_path):
    """tools/bench/testprofile.py from a recorded profile: per file sums, the floor the larger of CPU over
    two cores and the longest test, the section replaced in place with the rest of the document kept."""
    import json
    profile = tmp_path / "profile.jsonl"
    profile.write_text("\n".join(json.dumps(r) for r in [
        {"test": "tests/a.py::one", "wall": 100.0, "cpu": 150.0}, {"test": "tests/a.py::two", "wall": 1.0, "cpu": 2.0},
        {"test": "tests/b.py::three", "wall": 10.0, "cpu": 48.0}]) + "\n")
    document = tmp_path / "B.md"
    document.write_text("# top\n\n<!-- testcommand:start -->\nold\n<!-- testcommand:end -->\n\n## after\n")
    done = subprocess.run([sys.executable, "-m", "tools.bench.testprofile", "--from", str(profile), "--wall", "160",
                           "--cpu", "230", "--outcome", "3 passed", "--write", str(document)],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    text = document.read_text()
    assert text.startswith("# top\n\n<!-- testcommand:start -->\n") and text.endswith("<!-- testcommand:end -->\n\n## after\n")
    assert "old" not in text
    assert "floor on 2 cores is the larger of its CPU over 2 (115 s) and its longest test (100 s, `tests/a.py::one`): **115 s**" in text
    assert "| `tests/a.py` | 2 | 101 s | 152 s | 76% |" in text and "| `tests/b.py` | 1 | 10 s | 48 s | 24% |" in text
