"""The harness reports broken and hostile implementations clearly, and the run goes on.

The hostile ones (tests/fakes/hostile_adapter.py) answer every call correctly but one, on
bad.txt, in the second of three cases: each test asserts the exact outcome of all three."""
from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import pytest

from conftest import needs_confinement
from wsconf.isolation import reaper
from wsconf.adapters.base import Adapter, Session
from wsconf.adapters.reference import ReferenceAdapter
from wsconf.adapters.subprocess import SubprocessAdapter
from wsconf.judge.runner import ERROR, FAILED, PASSED, UNSUPPORTED, run_case
from wsconf.spec import Case
from wsconf.isolation.confine import choose
from wsconf.isolation.tree import run_dir

FAKE = Path(__file__).parent / "fakes" / "hostile_adapter.py"
# These tests check what the harness sees of an implementation it only watches (the way it runs
# where bwrap or the kernel do not allow confinement); the confined default has tests of its own.
WATCHED = choose("off")
CALL = "s1 (mastra_workspace_read_file)"


def case(expect=None, setup=None, needs=(), case_id="t.case", path="a.txt", steps=None, **extra) -> Case:
    step = {"id": "s1", "tool": "mastra_workspace_read_file", "args": {"path": path},
            "expect": expect or {"text": "fine"}}
    return Case(id=case_id, tool="read_file", title="t", claims=["tools.inventory.id_prefix"], steps=steps or [step],
                file="x.yaml", line=1, setup=setup or {}, needs=list(needs), **extra)


class FakeSession(Session):
    def __init__(self, behaviour):
        self.behaviour = behaviour

    def call(self, tool, args):
        return self.behaviour(args)


class FakeAdapter(Adapter):
    name, version, capabilities = "fake", "0", frozenset({"filesystem"})

    def __init__(self, behaviour):
        self.behaviour = behaviour

    def open(self, root, outside, home, workspace):
        self.root, self.outside = root, outside
        return FakeSession(lambda args: self.behaviour(self, args))


def test_a_passing_call_passes():
    result = run_case(case(), FakeAdapter(lambda a, args: {"kind": "text", "value": "fine", "model": None}))
    assert (result.outcome, result.message) == (PASSED, "")


def test_an_adapter_that_raises_is_an_error_naming_the_case_and_call():
    def boom(adapter, args):
        raise RuntimeError("kaput")
    result = run_case(case(), FakeAdapter(boom))  # recorded as the case's error, never lost
    assert result.outcome == ERROR
    assert re.fullmatch(r"adapter fault in case t\.case, call s1 \(mastra_workspace_read_file\): its answer could "
                        r"not be judged: RuntimeError: kaput \(at .*/tests/test_harness_faults\.py:\d+ in boom\)",
                        result.message), result.message


def test_garbage_results_fail_with_a_readable_account():
    result = run_case(case(), FakeAdapter(lambda a, args: {"kind": "banana"}))
    assert result.outcome == FAILED
    assert "expected a text result, got banana" in result.message


def test_wrong_text_shows_whitespace_and_a_diff():
    result = run_case(case({"text": "a\tb \nc"}), FakeAdapter(lambda a, args: {"kind": "text", "value": "a\tb\r\nc\n", "model": None}))
    assert result.outcome == FAILED
    assert "--- expected ---\na⇥b·\nc  ⏎̸ (no final newline)\n--- actual ---\na⇥b␍\nc\n--- diff ---" in result.message


def test_missing_capability_is_unsupported_not_failed():
    result = run_case(case(needs=["symlinks"]), FakeAdapter(lambda a, args: None))
    assert (result.outcome, result.message) == (UNSUPPORTED, "fake lacks: symlinks")


@pytest.mark.parametrize("where", ["CANARY", "sibling/CANARY", "outside/x.txt"])
def test_a_case_that_writes_outside_its_root_fails(where):
    def escape(adapter, args):
        (Path(adapter.root).parent / where).write_text("escaped")
        return {"kind": "text", "value": "fine", "model": None}
    result = run_case(case(), FakeAdapter(escape))
    assert result.outcome == FAILED
    assert result.message.startswith("touched files outside the workspace: ")
    assert where in result.message


def test_touches_outside_allows_outside_but_never_the_canaries():
    def write_outside(adapter, args):
        (Path(adapter.outside) / "x.txt").write_text("allowed")
        return {"kind": "text", "value": "fine", "model": None}
    assert run_case(case(touches_outside=True), FakeAdapter(write_outside)).outcome == PASSED


def test_the_reference_adapter_times_out_a_hung_call_and_recovers():
    adapter = ReferenceAdapter(timeout=0.3)
    started = time.monotonic()
    with pytest.raises(Exception, match="did not return within 0.3 s"):
        adapter.run_with_timeout(lambda: time.sleep(5))
    assert time.monotonic() - started < 2
    assert adapter.run_with_timeout(lambda: 42) == 42


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


@pytest.fixture
def pids(tmp_path, monkeypatch):
    """The pids the fake started (itself included), read after the test's runs."""
    path = tmp_path / "fake.pids"
    path.touch()
    monkeypatch.setenv("WSCONF_FAKE_PIDS", str(path))
    return lambda: [int(line) for line in path.read_text().split()]


def three_cases(mode, arg="", timeout=5.0, bad=None, confinement=WATCHED, **adapter_options):
    """first (a.txt), bad (bad.txt, the misbehaving call), third (a.txt), on one adapter."""
    adapter = SubprocessAdapter([sys.executable, str(FAKE), mode, arg], timeout=timeout, confinement=confinement,
                                **adapter_options)
    try:
        return [run_case(case(case_id=f"t.{name}", path=path, **(bad or {}) if name == "bad" else {}), adapter)
                for name, path in (("first", "a.txt"), ("bad", "bad.txt"), ("third", "a.txt"))]
    finally:
        adapter.close()


def outcomes(results):
    return [(r.case_id, r.outcome, r.message) for r in results]


def around(outcome, message):
    return [("t.first", PASSED, ""), ("t.bad", outcome, message), ("t.third", PASSED, "")]


# -- the protocol breaks: exit, hang, garbage, wrong id, closed stdout, slow trickle ---------------

@pytest.mark.parametrize("mode, message", [
    ("exit", "adapter process exited (code 3) during 'call'"),
    ("hang", "adapter did not answer 'call' within 1 s"),
    ("garbage", "adapter printed a line that is not JSON during 'call': 'this is not json'"),
    ("wrong_id", "adapter answered id 106 to request 6 ('call')"),
    ("closed_stdout", "adapter closed its stdout during 'call' and kept running: killed its process group"),
])
def test_a_protocol_break_is_an_error_of_its_case_and_the_next_case_runs_on_a_fresh_process(mode, message, pids):
    started = time.monotonic()
    results = three_cases(mode, timeout=1)
    assert outcomes(results) == around(ERROR, f"adapter fault in case t.bad, call {CALL}: {message}")
    assert time.monotonic() - started < 10
    assert [pid for pid in pids() if alive(pid)] == []  # the hung one, and the child of closed_stdout


def test_an_answer_trickling_in_past_the_deadline_is_a_timeout(pids):
    results = three_cases("trickle", "3", timeout=1)
    assert outcomes(results) == around(ERROR, f"adapter fault in case t.bad, call {CALL}: "
                                              "adapter did not answer 'call' within 1 s")


def test_an_answer_trickling_in_within_the_deadline_is_fine(pids):
    assert outcomes(three_cases("trickle", "0.5", timeout=5)) == around(PASSED, "")


# -- processes left behind ---------------------------------------------------------------------

@pytest.mark.parametrize("mode, count", [("stray_group", 1), ("stray_setsid", 1), ("stray_both", 2)])
def test_processes_left_after_close_are_reported_killed_and_fail_the_case(mode, count, pids):
    assert reaper.become_subreaper()
    results = three_cases(mode)
    strays = pids()[1:]  # after the fake itself (never restarted here): its sleepers
    assert len(strays) == count
    shown = ", ".join(f"sleep 300 (pid {pid})" for pid in sorted(strays))
    assert outcomes(results) == around(FAILED, f"left {count} process{'es' if count > 1 else ''} running: {shown}")
    assert [pid for pid in pids() if alive(pid)] == []


def test_the_new_pids_scan_finds_what_the_whole_scan_finds():
    """reaper.started_since (the pids handed out since a mark) against reading every process: a
    child, an orphan come back to this subreaper, the child of a process older than the mark, a
    setsid'd one; and no answer (the whole scan instead) once the mark is older than the window."""
    import dataclasses
    import subprocess
    import time
    assert reaper.become_subreaper()
    older = subprocess.Popen(["sh", "-c", "read go; sleep 30 & sleep 30"], stdin=subprocess.PIPE)
    time.sleep(0.2)
    mark = reaper.mark()
    try:
        def both():
            whole = sorted(p.pid for p in reaper.descendants().values() if p.start >= mark.ticks)
            fast = reaper.started_since(mark)
            return whole, None if fast is None else sorted(fast)
        assert both() == ([], [])
        child = subprocess.Popen(["sleep", "30"])
        subprocess.run(["sh", "-c", "sleep 30 & exit 0"], check=True)   # its orphan comes back here
        older.stdin.write(b"go\n")
        older.stdin.flush()
        subprocess.run(["setsid", "-f", "sleep", "30"], check=True)
        deadline = time.monotonic() + 0.6
        while time.monotonic() < deadline and len(both()[0]) < 5:
            time.sleep(0.02)
        whole, fast = both()
        assert child.pid in whole and len(whole) >= 5   # sleep, the orphan, older's two, setsid's
        assert fast == whole
        assert reaper.started_since(dataclasses.replace(mark, at=time.monotonic() - 2)) is None
        assert reaper.started_since(dataclasses.replace(mark, last_pid=None)) is None
    finally:
        older.kill()
        older.wait()
        reaper.kill([p for p in reaper.descendants().values() if p.start >= mark.ticks])
        reaper.reap(mark.ticks, set())


def test_a_case_may_name_the_process_it_leaves_on_purpose(pids):
    results = three_cases("stray_group", bad={"leaves_running": ["sleep"]})
    assert outcomes(results) == around(PASSED, "")
    assert [pid for pid in pids() if alive(pid)] == []  # not reported, but killed all the same


def test_a_named_survivor_that_does_not_survive_fails_the_case(pids):
    results = three_cases("exit", bad={"leaves_running": ["sleep"]})
    assert outcomes(results) == around(FAILED, "expected sleep to be left running after close (leaves_running), "
                                               f"but it was not\nadapter fault in case t.bad, call {CALL}: "
                                               "adapter process exited (code 3) during 'call'")


# -- writes outside the root --------------------------------------------------------------------

@pytest.mark.parametrize("mode, where", [
    ("write_parent", r"wsconf-[a-z0-9_]+/escaped\.txt"),   # beside the root, in the case folder
    ("write_home", r"home/escaped\.txt"),                  # the implementation's $HOME
    ("write_tmp", r"tmp/escaped\.txt"),                    # its $TMPDIR
])
def test_a_write_anywhere_around_the_root_fails_the_case(mode, where, pids):
    try:
        results = three_cases(mode)
    finally:
        for name in ("home", "tmp"):
            (run_dir() / name / "escaped.txt").unlink(missing_ok=True)
    assert outcomes(results)[::2] == around(PASSED, "")[::2]
    assert (results[1].case_id, results[1].outcome) == ("t.bad", FAILED)
    assert re.fullmatch(f"touched files outside the workspace: {re.escape(str(run_dir()))}/{where}", results[1].message)


@pytest.mark.parametrize("mode, name", [("write_home", "home"), ("write_tmp", "tmp")])
def test_the_same_leak_in_two_cases_fails_both_and_is_removed(mode, name, pids):
    """A file a case leaves in the implementation's HOME or TMPDIR is removed after its failure:
    otherwise a later case making the same file would change nothing and pass, and which case
    fails would depend on the order of the run."""
    adapter = SubprocessAdapter([sys.executable, str(FAKE), mode, ""], timeout=5.0, confinement=WATCHED)
    try:
        results = [run_case(case(case_id=f"t.{n}", path="bad.txt"), adapter) for n in ("one", "two")]
    finally:
        adapter.close()
    left = run_dir() / name / "escaped.txt"
    try:
        assert not left.exists()
    finally:
        left.unlink(missing_ok=True)
    expected = f"touched files outside the workspace: {run_dir()}/{name}/escaped.txt"
    assert outcomes(results) == [("t.one", FAILED, expected), ("t.two", FAILED, expected)]


def test_a_late_write_into_an_ended_case_folder_names_that_case(pids):
    """A case's folder is renamed away when it ends; an operation of it that lands later makes the
    folder again in the run folder: the case then running fails, and the message names the case
    whose folder it was."""
    results = three_cases("write_late")
    assert outcomes(results)[::2] == around(PASSED, "")[::2]
    assert (results[1].case_id, results[1].outcome) == ("t.bad", FAILED)
    folder = f"{re.escape(str(run_dir()))}/wsconf-[a-z0-9_]+"
    assert re.fullmatch(f"touched files outside the workspace: ({folder}), \\1/root, \\1/root/late\\.txt "
                        r"\(in the folder of t\.first, which had ended: an operation of that case landed late\)",
                        results[1].message), results[1].message


@pytest.fixture
def confined_pids(monkeypatch):
    """The fake's pid file where a confined one can write: the run folder's TMPDIR (the pids in
    it are the fake's own, in its pid namespace)."""
    path = run_dir() / "tmp" / "fake.pids"
    path.touch()
    path.chmod(0o666)  # the confined fake runs as a uid of its own
    monkeypatch.setenv("WSCONF_FAKE_PIDS", str(path))
    yield lambda: [int(line) for line in path.read_text().split()]
    path.unlink()


@needs_confinement
def test_confined_mode_makes_a_write_outside_the_case_folders_fail_loudly(confined_pids):
    results = three_cases("write_slash_tmp", confinement=choose("auto"))
    target = f"/tmp/wsconf-fake-escaped-{confined_pids()[0]}.txt"
    assert not os.path.exists(target)
    assert outcomes(results)[::2] == around(PASSED, "")[::2]
    assert results[1].message.splitlines()[:6] == [
        f"step 's1' ({CALL}): the text differs", "--- expected ---", "fine  ⏎̸ (no final newline)",
        "--- actual ---", f"[Errno 30] Read-only file system: '{target}'  ⏎̸ (no final newline)", "--- diff ---"]


@needs_confinement
def test_confined_mode_still_sees_writes_inside_the_watched_folders(confined_pids):
    try:
        results = three_cases("write_home", confinement=choose("auto"))
    finally:
        (run_dir() / "home" / "escaped.txt").unlink(missing_ok=True)
    assert outcomes(results) == around(FAILED, f"touched files outside the workspace: {run_dir()}/home/escaped.txt")


# -- leaks --------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode, encoding, where", [
    ("leak_text", "raw", "the text"), ("leak_text", "base64", "the text"), ("leak_text", "hex", "the text"),
    ("leak_text", "percent", "the text"), ("leak_model", "raw", "the model output"),
    ("leak_model", "base64", "the model output"), ("leak_error", "raw", "the error message"),
])
def test_content_of_a_file_outside_in_a_result_is_a_leak(mode, encoding, where, pids):
    form = {"percent": "percent-encoded"}.get(encoding, encoding)
    assert outcomes(three_cases(mode, encoding)) == around(
        FAILED, f"step 's1' ({CALL}) leaked the content of sibling/CANARY, outside the workspace ({form}, in {where})")


def test_a_workspace_allowed_to_read_the_file_may_return_its_content(pids):
    results = three_cases("leak_text", "raw", bad={"workspace": {"filesystem": {"allowedPaths": ["../sibling"]}}})
    assert outcomes(results)[::2] == around(PASSED, "")[::2]
    assert results[1].outcome == FAILED
    assert results[1].message.splitlines()[:3] == [f"step 's1' ({CALL}): the text differs", "--- expected ---",
                                                   "fine  ⏎̸ (no final newline)"]
    assert results[1].message.splitlines()[4].startswith("fine wsconf canary: nothing may change this file")


# -- size -------------------------------------------------------------------------------------

def test_a_response_line_over_the_cap_is_a_fault(pids):
    results = three_cases("huge", str(3 << 20), max_line=1 << 20)
    assert outcomes(results) == around(ERROR, f"adapter fault in case t.bad, call {CALL}: adapter sent a response "
                                              "line over the limit of 1,048,576 bytes during 'call' (--max-line)")


def test_lines_printed_unasked_are_a_fault_and_never_pile_up(pids):
    import resource
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # A second of 1 MB lines while the harness sleeps between steps: at most one waits for it.
    results = three_cases("flood", bad={"steps": [
        {"id": "s1", "tool": "mastra_workspace_read_file", "args": {"path": "bad.txt"}, "expect": {"text": "fine"}},
        {"id": "wait", "host": {"sleep_ms": 1000}}]})
    assert outcomes(results) == around(ERROR, "adapter fault in case t.bad, call close: adapter printed a line "
                                              f"after its answer to 'call', unasked (before 'close'): {'x' * 200!r}")
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 100 * 1024  # KB


def test_a_log_line_after_an_answer_is_the_fault_of_its_own_case(pids):
    """Printed on stdout after an answer, unasked: the case it came in fails, named so; the next
    case gets a fresh process and is not blamed."""
    results = three_cases("log_after")
    assert outcomes(results) == around(ERROR, "adapter fault in case t.bad, call close: adapter printed a line "
                                              "after its answer to 'call', unasked (before 'close'): 'a log line'")


def test_a_huge_result_is_reported_truncated_and_kept_whole_in_a_file(pids, tmp_path):
    from wsconf.isolation import sizes
    sizes.set_output_dir(tmp_path / "outputs")
    try:
        results = three_cases("huge", str(5 << 20))
    finally:
        sizes.set_output_dir(None)
    assert outcomes(results)[::2] == around(PASSED, "")[::2]
    bad = results[1]
    step = bad.steps[0]
    whole = tmp_path / "outputs" / "t.bad.s1.json"
    assert step["actual_file"] == str(whole)
    assert whole.read_bytes() == json.dumps({"kind": "text", "model": None, "value": "x" * (5 << 20)},
                                            separators=(",", ":"), sort_keys=True).encode()
    import hashlib
    assert (step["actual_size"], step["actual_sha256"]) == (whole.stat().st_size, hashlib.sha256(whole.read_bytes()).hexdigest())
    kept = 16_000 - len("text")  # the budget, less what `kind` took
    assert step["actual"] == {"kind": "text", "model": None, "value": "x" * kept + f"[... {(5 << 20) - kept:,} more characters]"}
    shown = "x" * 20_000 + f"\n[... truncated: {5 << 20:,} characters, the first 20,000 shown]"
    diff = ("--- expected\n+++ actual\n@@ -1 +1,2 @@\n-fine  ⏎̸ (no final newline)\n+"
            + shown.replace("\n", "\n+"))   # itself over 20,000 characters: cut too
    diff = diff[:20_000] + f"\n[... truncated: {len(diff):,} characters, the first 20,000 shown]"
    assert bad.message == (f"step 's1' ({CALL}): the text differs\n--- expected ---\nfine  ⏎̸ (no final newline)\n"
                           f"--- actual ---\n{shown}\n--- diff ---\n{diff}\n"
                           f"(the whole actual, {step['actual_size']:,} bytes of JSON, sha256 {step['actual_sha256']}, "
                           f"is in {whole})")


# -- smoke -------------------------------------------------------------------------------------

def test_smoke_ends_when_the_implementation_closes_its_stdout(pids, monkeypatch):
    from wsconf.port.smoke import SMOKE_TAG, smoke
    from wsconf.spec import load_spec
    monkeypatch.setenv("WSCONF_FAKE_BAD", "*")  # every call misbehaves
    import wsconf.adapters.subprocess as protocol_adapter
    monkeypatch.setattr(protocol_adapter, "default_confinement", lambda: WATCHED)  # the pid file is outside
    command = f"cmd:{sys.executable} {FAKE} closed_stdout"
    lines: list[str] = []
    assert smoke(command, 5, out=lines.append) == 1
    expected = [f"1. Starting {command!r} and asking who it is ...", "   ok: hostile-closed_stdout 0",
                "   capabilities: filesystem", "2. Opening a workspace on an empty folder and listing its tools ..."]
    cases = [c for c in load_spec().cases if SMOKE_TAG in c.tags]
    expected.append(f"3. Running {len(cases)} smoke cases ...")
    errors = 0
    for c in cases:
        if set(c.needs) - set(c.lenient) <= {"filesystem"}:  # posix_errors: refusals judged without it
            errors += 1
            expected += [f"   ERROR        {c.id}: {c.title}",
                         f"      adapter fault in case {c.id}, call {c.steps[0]['id']} ({c.steps[0]['tool']}): "
                         "adapter closed its stdout during 'call' and kept running: killed its process group",
                         f"      (see it in plain words: wsconf show {c.id})"]
        else:
            expected.append(f"   unsupported  {c.id}: {c.title}")
    assert errors >= 1
    assert "\n".join(lines).split("\n") == expected + ["", f"{errors} problem(s) above."]
    assert [pid for pid in pids() if alive(pid)] == []


def test_a_hello_whose_runtime_dir_is_not_a_string_is_refused_by_name(tmp_path):
    from wsconf.adapters.base import AdapterUnavailable
    from wsconf.adapters.subprocess import SubprocessAdapter
    port = tmp_path / "port.py"
    port.write_text("import json, sys\n"
                    "rid = json.loads(sys.stdin.readline())['id']\n"
                    "print(json.dumps({'id': rid, 'ok': True, 'result': {'protocol': 1, 'implementation': 'p',"
                    " 'version': '1', 'capabilities': [], 'runtimeDir': 5}}), flush=True)\n"
                    "sys.stdin.read()\n")
    with pytest.raises(AdapterUnavailable, match=r"hello: `runtimeDir` must be a string \(a folder\), got the number 5"):
        SubprocessAdapter([sys.executable, str(port)], timeout=10)


@pytest.mark.parametrize("options, said", [("all", "the string 'all'"), ({"readOnly": "yes"}, "an object with 'readOnly'"),
                                           ([True], "a list of 1")])
def test_a_hello_whose_filesystem_options_have_the_wrong_shape_is_refused_by_name(options, said):
    from wsconf.adapters.answers import hello_problem
    hello = {"protocol": 1, "implementation": "p", "version": "1", "capabilities": [], "filesystemOptions": options}
    assert hello_problem(hello) == ("hello: `filesystemOptions` must be an object of option: true or a list of values, "
                                    f"got {said}")
    assert hello_problem({**hello, "filesystemOptions": {"readOnly": True, "contained": [True, False]}}) is None
