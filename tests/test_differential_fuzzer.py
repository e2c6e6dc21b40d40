"""The differential fuzzer of Node's edges: it finds an implementation that handles a lone surrogate
its own way, and its comparison names only what differs by nature (folders, pids, times)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from wsconf.properties.outcomes import Outcome, tree_state

from conftest import REPO

ROOT = "/tmp/wsconf-run-ab12cd34/wsconf-prop-1a2b3c4d/root"


def test_the_fuzzer_reports_an_implementation_that_refuses_lone_surrogates():
    proc = subprocess.run([sys.executable, "-m", "wsconf.cli", "properties", "--adapter", "reference", "--compare",
                           "tests.fakes.python_strings_adapter:Adapter", "--fuzz-calls", "520", "--",
                           "-k", "node_edges and (read_file or write_file)"],
                          capture_output=True, text=True, cwd=REPO, timeout=600)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    summary = proc.stdout[proc.stdout.index("differential fuzzer"):]
    found = re.search(r"80 generated calls \(read_file 40, write_file 40\) against reference and "
                      r"tests\.fakes\.python_strings_adapter:Adapter\ndifferences: (\d+) \(read_file (\d+), "
                      r"write_file (\d+)\): the failures above show them", summary)
    assert found, summary
    assert int(found[1]) == int(found[2]) + int(found[3]) and int(found[2]) > 0 and int(found[3]) > 0
    assert "surrogates not allowed" in proc.stdout, proc.stdout[-3000:]   # where the answers part


def test_answers_name_the_case_folders_pids_and_times():
    out = Outcome(ROOT, ROOT.replace("root", "outside"), "/tmp/home")
    out.record({"kind": "text", "value": "Started background process (PID: 4242)"})
    out.record({"kind": "text", "value": f"{ROOT}/a 4242 14242 \\u00004242 2024-01-02T03:04:05.678Z"})
    out.record({"kind": "text", "value": "cut: -/tmp/wsconf-run-ab12cd34/wsconf-prop-1a... (truncated)"})
    assert [json.loads(a)["value"] for a in out.answers] == [
        "Started background process (PID: {{pid}})",
        "{{root}}/a {{pid}} 14242 \\u0000{{pid}} {{iso_time}}",
        "cut: -{{case}}... (truncated)"]


def test_the_tree_is_compared_by_bytes_with_the_case_folder_named(tmp_path):
    root = tmp_path / "wsconf-prop-zz" / "root"
    (root / os.fsdecode(b"bad\xff.txt")).parent.mkdir(parents=True)
    (root / os.fsdecode(b"bad\xff.txt")).write_bytes(b"x")
    nested = root / ("-" + str(tmp_path)) / "wsconf-prop-zz"
    nested.mkdir(parents=True)
    state = tree_state(str(root))
    assert "b'bad\\xff.txt' 2d711642b726b044" in state
    assert f"b'-{tmp_path}'/" in state and f"b'-{tmp_path}/wsconf-prop-zz'/" not in state
    assert any(entry.startswith("b'-{case}") for entry in state), state


def test_asking_for_calls_without_a_second_implementation_fails_saying_why():
    proc = subprocess.run([sys.executable, "-m", "wsconf.cli", "properties", "--adapter", "reference",
                           "--fuzz-calls", "52", "--", "-k", "node_edges"],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert ("differential fuzzer: 0 calls run, 52 asked for (it needs a second implementation: --compare)"
            in proc.stdout), proc.stdout[-2000:]


def test_a_value_cut_after_a_pid_reads_the_same_whatever_the_pids_width():
    """A confined implementation's pids are its own pid namespace's (3), the reference's the
    machine's (123456): the message cutting "{pid}xxxx..." after 20 characters shows more x after
    the narrower one. Both are read as if the pid were 7 digits wide."""
    def named(pid: str) -> str:
        out = Outcome(ROOT, ROOT.replace("root", "outside"), "/tmp/home")
        out.record({"kind": "text", "value": f"Started background process (PID: {pid})"})
        out.record({"kind": "error", "message": "got " + (pid + "x" * 40)[:20] + "... (truncated)"})
        return json.loads(out.answers[1])["message"]
    assert named("3") == named("123456") == named("1234567") == "got {{pid}}" + "x" * 13 + "... (truncated)"
