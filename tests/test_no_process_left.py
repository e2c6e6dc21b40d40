"""No process started by a case outlives the suite: every background command, timed-out child
and killed process group is gone once the run ends (for the reference and the upstream)."""
from __future__ import annotations

import os
import time

import pytest

from conftest import SPEC, bridge_missing_reason, run_suite

SANDBOX_CASES = [str(SPEC / "cases" / name) for name in ("execute_command", "get_process_output", "kill_process")]


def processes_in_case_trees() -> list[str]:
    """Processes whose working directory is (or was) inside a case tree."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if "/wsconf-" in cwd and state != "Z":  # zombies are already dead, waiting for init
            found.append(f"{pid} {cwd} {open(f'/proc/{pid}/cmdline').read().replace(chr(0), ' ')}")
    return found


@pytest.mark.parametrize("adapter", ["reference", "mastra"])
def test_sandbox_cases_leave_no_process_behind(tmp_path, adapter):
    if adapter == "mastra" and bridge_missing_reason():
        pytest.skip(bridge_missing_reason())
    before = set(processes_in_case_trees())
    code, records, output = run_suite(tmp_path, adapter, "-n", "2", "-k", "process or background or kill or timeout",
                                      spec=SPEC, paths=SANDBOX_CASES)
    assert code == 0, output[-3000:]
    assert len(records) > 30
    deadline = time.monotonic() + 5  # a killed group may need a moment to be reaped
    while time.monotonic() < deadline and set(processes_in_case_trees()) - before:
        time.sleep(0.2)
    assert sorted(set(processes_in_case_trees()) - before) == []
