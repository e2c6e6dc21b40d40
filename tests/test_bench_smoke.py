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


def check_table(proc: subprocess.CompletedProcess, upstream: bool) -> list[list[str]]:
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "FAILED" not in proc.stderr, proc.stderr[-3000:]
    table = proc.stdout
    for name in WORKLOADS:
        assert name in table, f"{name!r} missing from\n{table}"
    main_rows = [r for r in rows(table) if len(r) == 13]
    assert len(main_rows) == len(WORKLOADS), table
    for r in main_rows:
        assert r[1] != "—" and r[4] != "—" and r[5] != "—", f"a wsref timing is missing: {r}"
        assert (r[2] != "—" and r[6] != "—") == upstream, f"upstream timings should {'' if upstream else 'not '}be there: {r}"
    for r in main_rows[:4]:
        assert r[9] != "—", f"GNU grep did not run: {r}"
    assert "read_file memory does not grow" in table
    return main_rows


def test_quick_bench_reference_and_grep_floor():
    """wsref inside, through the in-process adapter and over the protocol, and GNU grep."""
    check_table(run_bench("--no-upstream"), upstream=False)


@pytest.mark.skipif(bridge_missing_reason() is not None, reason=bridge_missing_reason() or "")
def test_quick_bench_against_the_upstream():
    """The same with @mastra/core inside (tools/bench/inside.mjs) and through the bridge: every
    workload gives the same output in every implementation."""
    for r in check_table(run_bench(), upstream=True):
        assert r[12] == "yes", f"wsref and the upstream disagree on {r[0]}: {r}"


def test_bench_help_documents_the_command():
    proc = subprocess.run([sys.executable, "tools/bench/run.py", "--help"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "--quick" in proc.stdout and "--rounds" in proc.stdout
