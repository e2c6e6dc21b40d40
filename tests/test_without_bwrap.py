"""The test command on a machine without bwrap: the tests of the confined mode skip saying why, never
fail. Checked here by hiding bwrap from PATH (conftest.path_without), on any machine."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

from conftest import CANNOT_CONFINE, REPO, path_without

CONFINED_TESTS = [
    "tests/test_harness_faults.py::test_confined_mode_makes_a_write_outside_the_case_folders_fail_loudly",
    "tests/test_harness_faults.py::test_confined_mode_still_sees_writes_inside_the_watched_folders",
    "tests/test_hostile_runs.py::test_the_header_says_how_the_implementation_is_confined",
]


def test_confined_tests_skip_with_the_reason_when_bwrap_is_missing(tmp_path):
    path = path_without("bwrap", tmp_path / "bin")
    assert shutil.which("bwrap", path=path) is None
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *CONFINED_TESTS],
                          cwd=REPO, capture_output=True, text=True, timeout=300, env={**os.environ, "PATH": path})
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert re.search(r"^1 passed, 3 skipped in ", out.splitlines()[-1]), out[-3000:]
    why = CANNOT_CONFINE + "bwrap is not installed (apt-get install bubblewrap)"
    assert out.count(why) == 3, out[-3000:]
