"""Fixtures for the property suite: the adapter under test, an optional second one to compare
against, case trees with canaries, and the hypothesis profiles."""
from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, settings

from ..adapters.registry import load_adapter
from ..isolation.tree import make_tree

# quick: the test command; thorough: CI or by hand (thousands of examples).
settings.register_profile("quick", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.load_profile(os.environ.get("WSCONF_PROFILE", "quick"))
# The containment fuzzer counts paths, not examples of a profile: CI runs 10,000 (.ci/run).
FUZZ_PATHS = int(os.environ.get("WSCONF_FUZZ_PATHS") or (100 if os.environ.get("WSCONF_PROFILE", "quick") == "quick" else 2000))
FUZZ: Counter = Counter()   # what the fuzzer did, for the summary
# The differential fuzzer of Node's edges counts generated calls, spread over the tools: CI runs 5,000 or more.
FUZZ_CALLS = int(os.environ.get("WSCONF_FUZZ_CALLS") or (200 if os.environ.get("WSCONF_PROFILE", "quick") == "quick" else 5200))
DIFFERENTIAL: Counter = Counter()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if DIFFERENTIAL["calls"]:
        _differential_summary(terminalreporter, config)
    if not FUZZ["paths"]:
        return
    tr = terminalreporter
    tr.section("containment fuzzer")
    tr.write_line(f"{FUZZ['paths']:,} paths, {FUZZ['calls']:,} calls against {config.getoption('wsconf_adapter')}")
    tr.write_line("unexplained escapes and leaks: " + ("found: the failure above shows the smallest example"
                                                       if FUZZ["unexplained"] else "0"))
    tools = ", ".join(f"{k.split()[1].removeprefix('mastra_workspace_')} {v:,}"
                      for k, v in sorted(FUZZ.items()) if k.startswith("explained "))
    tr.write_line(f"explained escapes: {FUZZ['explained']:,}" + (f" ({tools})" if tools else "")
                  + ": new files or folders created through a symlink in the root that points outside, "
                  "pinned upstream behaviour (write_file/mkdir containment cases)")


def _differential_summary(tr, config) -> None:
    tr.section("differential fuzzer")
    tools = ", ".join(f"{k.split()[1]} {v:,}" for k, v in sorted(DIFFERENTIAL.items()) if k.startswith("calls "))
    tr.write_line(f"{DIFFERENTIAL['calls']:,} generated calls ({tools}) against "
                  f"{config.getoption('wsconf_adapter')} and {config.getoption('wsconf_compare')}")
    differ = ", ".join(f"{k.split()[1]} {v:,}" for k, v in sorted(DIFFERENTIAL.items())
                       if k.startswith("differences ") and v)
    tr.write_line(f"differences: {DIFFERENTIAL['differences']:,}" + (f" ({differ}): the failures above show them"
                                                                    if differ else ""))


def pytest_sessionfinish(session, exitstatus):
    wanted = os.environ.get("WSCONF_FUZZ_PATHS")
    if wanted and FUZZ["paths"] < int(wanted) and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED  # the fuzzer did not run, or ran short
        print(f"\ncontainment fuzzer: {FUZZ['paths']:,} paths run, {int(wanted):,} asked for")
    wanted = os.environ.get("WSCONF_FUZZ_CALLS")
    if wanted and DIFFERENTIAL["calls"] < int(wanted) and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        why = "" if session.config.getoption("wsconf_compare") else " (it needs a second implementation: --compare)"
        print(f"\ndifferential fuzzer: {DIFFERENTIAL['calls']:,} calls run, {int(wanted):,} asked for{why}")


@pytest.fixture(scope="session")
def adapter(request):
    a = load_adapter(request.config.getoption("wsconf_adapter"), request.config.getoption("wsconf_timeout"))
    yield a
    a.close()


@pytest.fixture(scope="session")
def other_adapter(request):
    """The second implementation of differential mode (--wsconf-compare), or None."""
    spec = request.config.getoption("wsconf_compare")
    if not spec:
        yield None
        return
    a = load_adapter(spec, request.config.getoption("wsconf_timeout"))
    yield a
    a.close()


class Workspace:
    """A fresh case tree and an open session on it, for one generated example."""

    def __init__(self, adapter, workspace: dict | None = None, setup=None, watch=True):
        self.adapter = adapter
        self.watch = watch   # False: the test checks the outside itself
        self.tree = make_tree("wsconf-prop-")
        self.tree.lay_out({})
        if setup:
            setup(self.tree)  # before the fingerprint: what setup lays outside is allowed
        self.before = None
        self.session = None
        self.workspace = workspace or {}

    def __enter__(self):
        self.tree.hand_over(self.tree.root, self.tree.outside)  # what setup laid out is the implementation's
        self.before = self.tree.fingerprint_outside()
        self.session = self.adapter.open(str(self.tree.root), str(self.tree.outside), str(self.tree.home),
                                         self.workspace)
        return self

    def __exit__(self, *exc):
        try:
            self.session.close()
            if not self.watch:
                return
            after = self.tree.fingerprint_outside()
            changed = [p for p in set(self.before) | set(after) if self.before.get(p) != after.get(p)]
            assert not changed, f"touched files outside the workspace: {sorted(changed)}"
        finally:
            self.tree.remove()

    def call(self, tool: str, args: dict) -> dict:
        self.tree.hand_over(self.tree.root)  # files a test wrote there since are the implementation's too
        return self.session.call(tool, args)


@pytest.fixture
def open_workspace():
    return Workspace
