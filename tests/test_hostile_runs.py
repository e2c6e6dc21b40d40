"""Whole runs (the plugin in a child pytest) against the hostile fake: every run ends, keeps the
result of every case (case by case: an interrupted run keeps what finished), stays small in
memory and output, and leaves no process behind."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import REPO, needs_confinement, read_file_cases
from test_harness_faults import FAKE, alive

CASES = read_file_cases({"first": "a.txt", "bad": "bad.txt", "third": "a.txt"})
CALL = "s1 (mastra_workspace_read_file)"
# The child pytest reports its own peak resident size (not its children's: the fake's is large).
PEAK = ("import resource, sys, pytest\ncode = pytest.main(sys.argv[2:])\n"
        "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))\nsys.exit(code)")


@pytest.fixture
def suite(tmp_path, mini_spec, monkeypatch):
    (mini_spec / "cases" / "read_file" / "t.yaml").write_text(CASES)
    pidfile = tmp_path / "fake.pids"
    pidfile.touch()
    monkeypatch.setenv("WSCONF_FAKE_PIDS", str(pidfile))
    # The child's run folder goes here too: a run killed with SIGKILL cannot remove its own.
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))

    class Suite:
        results, junit, peak = tmp_path / "r.jsonl", tmp_path / "r.xml", tmp_path / "peak"

        def argv(self, mode, arg="", *extra, confined=False):
            # Unconfined unless asked: these runs check what the harness sees of an implementation
            # it only watches (the fake's pid file is outside the case folders).
            return [sys.executable, "-c", PEAK, str(self.peak), str(mini_spec / "cases"), "-q", "-p", "no:cacheprovider",
                    "--wsconf-adapter", f"cmd:{sys.executable} {FAKE} {mode} {arg}", "--wsconf-results",
                    str(self.results), "--junitxml", str(self.junit), "--wsconf-fresh", "0", *extra,
                    *([] if confined else ["--wsconf-unconfined"])]

        def run(self, mode, arg="", *extra, confined=False):
            proc = subprocess.run(self.argv(mode, arg, *extra, confined=confined), capture_output=True, text=True,
                                  cwd=REPO, timeout=300)
            return proc.returncode, proc.stdout + proc.stderr

        def records(self):
            lines = [json.loads(line) for line in self.results.read_text().splitlines()]
            assert list(lines[0]) == ["run"]  # what the run judged comes first
            if list(lines[-1]) == ["end"]:  # and, when it ended, what it counted last
                lines = lines[:-1]
            return [(r["id"], r["outcome"], r["message"]) for r in lines[1:]]

        def junit_cases(self):
            """(name, outcome tags): pytest's writer adds properties, and a nameless testcase for
            an item a Ctrl-C interrupted."""
            return [(c.get("name"), [child.tag for child in c if child.tag != "properties"])
                    for c in ET.parse(self.junit).iter("testcase") if c.get("name")]

        def pids(self):
            return [int(line) for line in pidfile.read_text().split()]
    return Suite()


def around(outcome, message):
    return [("read_file.t.first", "passed", ""), ("read_file.t.bad", outcome, message), ("read_file.t.third", "passed", "")]


def wait_gone(pids, seconds=5):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


@pytest.mark.parametrize("mode, arg, extra, outcome, message, junit", [
    ("closed_stdout", "", [], "error",
     f"adapter fault in case read_file.t.bad, call {CALL}: adapter closed its stdout during 'call' and kept running: "
     "killed its process group", "failure"),
    ("hang", "", ["--wsconf-timeout", "1"], "error",
     f"adapter fault in case read_file.t.bad, call {CALL}: adapter did not answer 'call' within 1 s", "failure"),
    ("leak_model", "hex", [], "failed",
     f"step 's1' ({CALL}) leaked the content of sibling/CANARY, outside the workspace (hex, in the model output)",
     "failure"),
])
def test_a_run_against_a_hostile_implementation_ends_with_every_result(suite, mode, arg, extra, outcome, message, junit):
    code, output = suite.run(mode, arg, *extra)
    assert code == 1, output[-3000:]
    assert suite.records() == around(outcome, message)
    assert suite.junit_cases() == [("read_file.t.first", []), ("read_file.t.bad", [junit]), ("read_file.t.third", [])]
    assert wait_gone(suite.pids()) == []


def test_no_process_the_implementation_left_outlives_the_run(suite):
    code, output = suite.run("stray_both")
    assert code == 1, output[-3000:]
    fake, *strays = suite.pids()
    assert len(strays) == 2
    shown = ", ".join(f"sleep 300 (pid {pid})" for pid in sorted(strays))
    assert suite.records() == around("failed", f"left 2 processes running: {shown}")
    assert wait_gone(suite.pids()) == []


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_an_interrupted_run_keeps_the_cases_that_finished(suite, how):
    proc = subprocess.Popen(suite.argv("hang", "", "--wsconf-timeout", "120"), cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        # the first case's record, not the run's first line (written before any case ran)
        while time.monotonic() < deadline and not (suite.results.exists() and len(suite.results.read_text().splitlines()) > 1):
            time.sleep(0.1)
        time.sleep(0.5)  # into the hanging call
        proc.send_signal(how)
        proc.wait(timeout=30)
        assert suite.records() == [("read_file.t.first", "passed", "")]
        assert suite.junit_cases() == [("read_file.t.first", [])]
        if how == signal.SIGTERM:  # stopped like Ctrl-C: the hung implementation is gone too
            assert wait_gone(suite.pids()) == []
    finally:
        proc.kill()
        for pid in suite.pids():
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("max_line, outcome", [("64MB", "error"), ("300MB", "failed")])
def test_a_200_mb_result_keeps_the_harness_small(suite, max_line, outcome, tmp_path):
    size = 200 * 1024 * 1024
    started = time.monotonic()
    code, output = suite.run("huge", str(size), "--wsconf-max-line", max_line, "--wsconf-timeout", "120")
    took = time.monotonic() - started
    assert code == 1, output[-3000:]
    peak_mb = int(suite.peak.read_text()) / 1024
    records = suite.records()
    assert records[::2] == around(outcome, "")[::2]
    if outcome == "error":
        assert records[1][2] == (f"adapter fault in case read_file.t.bad, call {CALL}: adapter sent a response line "
                                 "over the limit of 67,108,864 bytes during 'call' (--max-line)")
    else:
        whole = Path(f"{suite.results}.outputs") / "read_file.t.bad.s1.json"
        assert whole.stat().st_size == size + len('{"kind":"text","model":null,"value":""}')
        assert records[1][2].endswith(f"is in {whole})")
        whole.unlink()
    print(f"200 MB result, --wsconf-max-line {max_line}: harness peak RSS {peak_mb:.0f} MB, {took:.1f} s")
    assert peak_mb < 1024
    assert len(output) < 200_000 and suite.results.stat().st_size < 200_000 and suite.junit.stat().st_size < 200_000


WATCHED = "confinement:    UNCONFINED: asked for (--unconfined): the implementation runs as this user, only watched"
CONFINED = ("confinement:    confined (bwrap): own mount, pid and user namespaces; writable: the case folders only; "
            "the spec, the expectations and the results hidden; the harness's processes out of reach")


@pytest.mark.parametrize("confined", [False, pytest.param(True, marks=needs_confinement)])
def test_the_header_says_how_the_implementation_is_confined(suite, confined, monkeypatch):
    monkeypatch.setenv("WSCONF_FAKE_PIDS", os.devnull)  # confined, it may write nowhere else
    # Watched: a write in the implementation's HOME is seen afterwards. Confined: one in /tmp fails.
    code, output = suite.run("write_slash_tmp" if confined else "write_home", "", confined=confined)
    assert code == 1, output[-3000:]
    shown = CONFINED if confined else WATCHED
    assert [line for line in output.splitlines() if line.startswith("confinement:")] == [shown]
    run = json.loads(suite.results.read_text().splitlines()[0])["run"]
    assert run["confinement"] == shown.removeprefix("confinement:").strip()
    records = suite.records()
    assert records[::2] == around("passed", "")[::2]
    assert records[1][1] == "failed", records[1]
    if confined:
        assert "[Errno 30] Read-only file system: '/tmp/wsconf-fake-escaped-" in records[1][2]
    else:
        assert re.fullmatch(r"touched files outside the workspace: /\S+/wsconf-run-[^/]+/home/escaped\.txt", records[1][2])
