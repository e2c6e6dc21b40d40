"""The whole conformance suite, run as users run it: against the reference in process, through
the wire protocol, and against the real @mastra/core through the bridge. After the in-process
and the upstream runs, no process started by a case outlives the suite: every background
command, timed-out child and killed process group is gone once the run ends (checked on the
same run, which holds every sandbox case, rather than on a second run of those cases)."""
from __future__ import annotations

from collections import Counter

import pytest

from conftest import bridge_missing_reason, processes_left_in, run_suite
from wsconf.spec import load_spec


def summary(records):
    return Counter(r["outcome"] for r in records)


def failures(records):
    return "\n\n".join(f"{r['id']}: {r['message']}" for r in records if r["outcome"] in ("failed", "error", "xpass"))


@pytest.mark.long_running(100)
def test_every_case_passes_against_the_reference(tmp_path):
    code, records, output = run_suite(tmp_path, "reference", "-n", "2")  # its waits overlapped, as users run it
    assert len(records) == len(load_spec().cases), output[-3000:]
    assert failures(records) == ""
    assert code == 0, output[-3000:]
    assert processes_left_in(tmp_path) == []


@pytest.mark.long_running(125)
def test_the_protocol_path_gives_the_same_outcomes(tmp_path):
    code, records, output = run_suite(tmp_path, "reference-protocol", "-n", "2")
    assert failures(records) == ""
    assert code == 0, output[-3000:]
    counts = summary(records)
    assert counts["passed"] + counts["unsupported"] == len(load_spec().cases)


@pytest.mark.skipif(bridge_missing_reason() is not None, reason=bridge_missing_reason() or "")
@pytest.mark.long_running(90)
def test_the_upstream_has_no_unexpected_results(tmp_path):
    code, records, output = run_suite(tmp_path, "mastra", "-n", "2")
    assert failures(records) == ""
    assert code == 0, output[-3000:]
    assert len(records) == len(load_spec().cases)
    assert processes_left_in(tmp_path) == []


def test_the_outcomes_do_not_depend_on_where_the_harness_runs(tmp_path):
    """Run from a folder holding the case trees (a new user in /tmp runs so): an implementation shows a
    path under its working directory as $cwd/..., so a case whose answer names a path sets the process's
    working directory itself (processCwd) rather than inherit the harness's. The cases that did not
    failed here before: the lsp_inspect locations."""
    import os
    import subprocess
    import sys
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "r.jsonl"
    done = subprocess.run([sys.executable, "-m", "wsconf.cli", "run", "--tool", "lsp_inspect", "-n", "2", "--fresh", "0",
                           "--results", str(results)], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "TMPDIR": str(tmp)})
    from wsconf.reports.table import load_results
    records = load_results(results)
    assert records and failures(records) == "", done.stdout[-3000:]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
