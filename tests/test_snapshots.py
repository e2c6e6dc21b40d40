"""The committed snapshots hold for the reference and for the upstream."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO, bridge_missing_reason


def run(*args):
    return subprocess.run([sys.executable, "-m", "wsconf.cli", "snapshots", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=300)


def test_reference_matches_the_snapshots():
    proc = run("--adapter", "reference")
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "11 passed" in proc.stdout


@pytest.mark.skipif(bridge_missing_reason() is not None, reason=bridge_missing_reason() or "")
def test_upstream_matches_the_snapshots():
    proc = run("--adapter", "mastra")
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "11 passed" in proc.stdout


def test_update_refuses_anything_but_the_reference():
    assert run("--adapter", "mastra", "--update").returncode == 2
