"""The property suite runs (quick profile) against the reference, and differentially against the
upstream when the bridge is installed."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO, bridge_missing_reason


def run(*args):
    return subprocess.run([sys.executable, "-m", "wsconf.cli", "properties", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=600)


def test_properties_hold_for_the_reference():
    proc = run("--adapter", "reference")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout


@pytest.mark.skipif(bridge_missing_reason() is not None, reason=bridge_missing_reason() or "")
def test_reference_and_upstream_agree_on_generated_inputs():
    proc = run("--adapter", "reference", "--compare", "mastra", "--", "-k", "differential or containment")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "skipped" not in proc.stdout.splitlines()[-1]
