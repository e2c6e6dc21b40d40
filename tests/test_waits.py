"""Wait steps end on their condition, last their whole timeout where it cannot be seen, never pass
or fail a case by themselves, and their `after` is checked (as a host step's is)."""
from __future__ import annotations

import subprocess
import time

from wsconf.adapters.base import Adapter, Session
from wsconf.judge.runner import FAILED, PASSED, run_case
from wsconf.spec import Case


def case(*steps) -> Case:
    return Case(id="t.wait", tool="execute_command", title="t", claims=["tools.inventory.id_prefix"],
                steps=list(steps), file="x.yaml", line=1)


class Answers(Session):
    """Answers every call with the next text of a script (the last one repeats)."""

    def __init__(self, texts):
        self.texts, self.calls = list(texts), 0

    def call(self, tool, args):
        self.calls += 1
        text = self.texts[min(self.calls, len(self.texts)) - 1]
        return {"kind": "text", "value": text, "model": None}


class Scripted(Adapter):
    name, version = "scripted", "0"

    def __init__(self, texts=("x",), capabilities=()):
        self.texts, self.capabilities = texts, frozenset(capabilities)
        self.root = None

    def open(self, root, outside, home, workspace):
        self.root = root
        self.session = Answers(self.texts)
        return self.session


def timed(c, adapter):
    started = time.monotonic()
    result = run_case(c, adapter)
    return result, time.monotonic() - started


def test_a_call_wait_ends_when_the_answer_comes_and_the_case_goes_on():
    adapter = Scripted(["(no output yet)", "(no output yet)", "started\n"])
    wait = {"id": "settle", "wait": {"timeout_ms": 5000, "until": {"call": {
        "tool": "mastra_workspace_get_process_output", "args": {"pid": "1"}, "expect": {"text": "started\n"}}}}}
    step = {"id": "output", "tool": "mastra_workspace_get_process_output", "args": {"pid": "1"},
            "expect": {"text": "started\n"}}
    result, took = timed(case(wait, step), adapter)
    assert result.outcome == PASSED, result.message
    assert adapter.session.calls == 4  # three polls, the third answered, then the step itself
    assert [s["id"] for s in result.steps] == ["output"]  # the polls are not steps


def test_a_wait_whose_condition_never_holds_ends_at_its_deadline_and_does_not_fail():
    wait = {"id": "settle", "wait": {"timeout_ms": 300, "until": {"call": {
        "tool": "t", "expect": {"text": "never"}}}}}
    result, took = timed(case(wait), Scripted(["other"]))
    assert result.outcome == PASSED and took >= 0.3


def test_process_conditions_last_the_whole_timeout_without_host_processes():
    for until in ({"no_process": True}, {"exited": "1"}):
        result, took = timed(case({"id": "w", "wait": {"timeout_ms": 300, "until": until}}), Scripted())
        assert result.outcome == PASSED and took >= 0.3, until


def test_no_process_waits_for_the_cases_own_processes_only():
    class Spawner(Scripted):
        def open(self, root, outside, home, workspace):
            self.child = subprocess.Popen(["sleep", "0.4"], cwd=root)
            return super().open(root, outside, home, workspace)
    # Deadlines far beyond the condition: ending well before one is ending on the condition, on
    # however loaded a machine.
    adapter = Spawner(capabilities=["host_processes"])
    result, took = timed(case({"id": "w", "wait": {"timeout_ms": 10000, "until": {"no_process": True}}}), adapter)
    adapter.child.wait()
    assert result.outcome == PASSED and 0.35 <= took < 8
    result, took = timed(case({"id": "w", "wait": {"timeout_ms": 10000, "until": {"no_process": True}}}),
                         Scripted(capabilities=["host_processes"]))
    assert took < 8


def test_exited_waits_until_the_process_is_reaped():
    class Spawner(Scripted):
        def open(self, root, outside, home, workspace):
            self.child = subprocess.Popen(["sleep", "0.3"], cwd=root)
            self.texts = [str(self.child.pid)]
            return super().open(root, outside, home, workspace)
    adapter = Spawner(capabilities=["host_processes"])
    start = {"id": "start", "tool": "t", "expect": {"text": "{{pid}}"}}
    wait = {"id": "w", "wait": {"timeout_ms": 10000, "until": {"exited": "{{pid}}"}}}
    import threading
    started = time.monotonic()
    reaper = threading.Timer(0.5, lambda: adapter.child.wait())  # the parent reaps it late
    reaper.start()
    result = run_case(case(start, wait), adapter)
    took = time.monotonic() - started
    assert result.outcome == PASSED and 0.5 <= took < 8, result.message


def test_files_wait_and_the_after_of_a_wait_or_host_step_are_checked():
    write = {"id": "w", "host": {"write": {"m.txt": "done\n"}}}
    wait = {"id": "wait", "wait": {"timeout_ms": 10000, "until": {"files": {"m.txt": "done\n"}}},
            "after": {"files": {"m.txt": "done\n"}}}
    result, took = timed(case(write, wait), Scripted())
    assert result.outcome == PASSED and took < 8
    for step in ({"id": "h", "host": {"write": {"m.txt": "x"}}, "after": {"absent": ["m.txt"]}},
                 {"id": "w", "wait": {"timeout_ms": 50, "until": {"files": {"m.txt": "x"}}}, "after": {"dirs": ["m.txt"]}}):
        result = run_case(case(write, step), Scripted())
        assert result.outcome == FAILED and "afterwards" in result.message, step


class Echo(Session):
    """Answers each call with the text it was asked for (its args' `say`)."""

    def __init__(self):
        self.asked = []

    def call(self, tool, args):
        self.asked.append(args["say"])
        return {"kind": "text", "value": args["say"], "model": None}


class Echoing(Scripted):
    def open(self, root, outside, home, workspace):
        self.session = Echo()
        return self.session


def test_a_polled_call_gets_the_captured_values_in_its_args_and_keeps_patterns_in_its_expect():
    # A step captures int = 7 (its text pattern); the polled call's args get 7, and its expect's {{int}} stays a
    # pattern, as in a step's expect (it would otherwise be the literal 7 and never hold).
    capture = {"id": "capture", "tool": "t", "args": {"say": "7"},
               "expect": {"text": "{{int}}"}}
    wait = {"id": "settle", "wait": {"timeout_ms": 5000, "until": {"call": {
        "tool": "t", "args": {"say": "at {{int}}, took 12 ms"}, "expect": {"text": "at {{int}}, took {{int}} ms"}}}}}
    adapter = Echoing()
    result, took = timed(case(capture, wait), adapter)
    assert result.outcome == PASSED, result.message
    assert adapter.session.asked == ["7", "at 7, took 12 ms"]  # held at the first poll
    assert took < 2
