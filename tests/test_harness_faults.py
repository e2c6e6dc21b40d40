"""The harness reports broken adapters and escaping cases clearly, and the run goes on."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from wsconf.adapters.base import Adapter, Session
from wsconf.adapters.reference import ReferenceAdapter
from wsconf.adapters.subprocess import SubprocessAdapter
from wsconf.runner import ERROR, FAILED, PASSED, UNSUPPORTED, run_case
from wsconf.spec import Case

FAKE = Path(__file__).parent / "fakes" / "bad_protocol_adapter.py"


def case(expect=None, setup=None, needs=(), case_id="t.case", **extra) -> Case:
    step = {"id": "s1", "tool": "mastra_workspace_read_file", "args": {"path": "a.txt"},
            "expect": expect or {"text": "fine"}}
    return Case(id=case_id, tool="read_file", title="t", claims=["tools.inventory.id_prefix"], steps=[step],
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
    with pytest.raises(RuntimeError):
        run_case(case(), FakeAdapter(boom))  # a Python bug in an adapter is not hidden ...


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


@pytest.mark.parametrize("mode, message", [
    ("exit", "adapter process exited (code 3) during 'call'"),
    ("hang", "adapter did not answer 'call' within 1 s"),
    ("garbage", "adapter printed a line that is not JSON during 'call': 'this is not json'"),
    ("wrong_id", "adapter answered id 103 to request 3 ('call')"),
])
def test_protocol_faults_are_errors_and_the_next_case_runs_on_a_fresh_process(mode, message, tmp_path):
    adapter = SubprocessAdapter([sys.executable, str(FAKE), mode, str(tmp_path / "marker")], timeout=1)
    try:
        first = run_case(case(case_id="t.first"), adapter)
        assert first.outcome == ERROR
        assert first.message.startswith(f"adapter fault in case t.first, call s1 (mastra_workspace_read_file): {message}")
        second = run_case(case(case_id="t.second"), adapter)
        assert (second.outcome, second.message) == (PASSED, "")
    finally:
        adapter.close()
