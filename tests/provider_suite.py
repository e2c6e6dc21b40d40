"""What the provider tests share (test_s3_provider.py, test_gcs_provider.py, test_sandboxfs_provider.py):
the whole suite on a provider adapter, judged against its expectations file, and a check that no server outlived it."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BRIDGE, REPO, SPEC
from wsconf.session import expectations
from wsconf.adapters.provider_kit import PIDFILE_ENV
from wsconf.reports.table import load_results
from wsconf.spec import load_spec


def bridge_missing_reason(package: str) -> str | None:
    if shutil.which("node") is None:
        return "node is not installed: the bridge cannot run"
    for name in ("core", package):
        if not (BRIDGE / "node_modules" / "@mastra" / name).exists():
            return f"tools/mastra-bridge/node_modules/@mastra/{name} is missing: run `make setup` (npm ci)"
    return None


def server_alive(pid: int, marker: str) -> bool:
    """Is this pid still a running (not zombie) process whose command line holds marker?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True  # no /proc: the pid exists
    state = stat.rsplit(")", 1)[1].split()[0]
    return state != "Z" and marker in cmdline


def pids_in(pidfile: Path) -> list[int]:
    return [int(p) for p in pidfile.read_text().split()] if pidfile.exists() else []


def check_whole_suite(tmp_path: Path, adapter: str, implementation: str, marker: str | None, timeout: float) -> list[dict]:
    """Every case runs; failures are exactly the listed ones; every server the run started is gone
    (marker: what a server's command line holds; None for a provider without a server)."""
    # Listed failures are checked here rather than by the plugin (--wsconf-no-expectations): the
    # same rule (a listed case must fail, an unlisted one must not), at a fraction of the run time.
    results, pidfile = tmp_path / "results.jsonl", tmp_path / "servers.pids"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", str(SPEC / "cases"), "-q", "-p", "no:cacheprovider", "--tb=no",
         "-p", "no:hypothesispytest",
         "-n", "2", "--wsconf-adapter", adapter, "--wsconf-no-expectations", "--wsconf-results", str(results)],
        capture_output=True, text=True, cwd=REPO, timeout=timeout, env={**os.environ, PIDFILE_ENV: str(pidfile)})
    output = (proc.stdout + proc.stderr)[-3000:]
    records = load_results(results) if results.exists() else []
    spec = load_spec()
    assert len(records) == len(spec.cases), output

    assert {r["implementation"] for r in records} == {implementation}, output
    errors = {r["id"]: r["message"][:500] for r in records if r["outcome"] == "error"}
    assert errors == {}
    expected = expectations.load(implementation)
    assert expected, f"conformance/expectations/{expectations.slug(implementation)}.yaml is missing or empty"
    assert sorted(set(expected) - {c.id for c in spec.cases}) == [], "expectations naming no existing case"
    failed = {r["id"]: r["message"][:800] for r in records if r["outcome"] == "failed"}
    unexpected = {case: msg for case, msg in failed.items() if case not in expected}
    assert unexpected == {}, "failures not in the expectations file:\n" + "\n".join(
        f"{case}: {msg}" for case, msg in sorted(unexpected.items()))
    outcomes = {r["id"]: r["outcome"] for r in records}
    unexpected_passes = sorted(case for case in expected if outcomes.get(case) != "failed")
    assert unexpected_passes == [], (
        "listed in the expectations file but did not fail (passed or unsupported): " + ", ".join(unexpected_passes))

    # Every server the run started (the controller's for hello, one per xdist worker) is gone.
    pids = pids_in(pidfile)
    if marker is None:
        assert pids == [], "a provider without a server started one"
        return records
    assert pids, "no server was started"
    assert [p for p in pids if server_alive(p, marker)] == []
    return records


def check_server_stopped_when_bridge_cannot_start(monkeypatch, tmp_path: Path, make_adapter, marker: str) -> None:
    """The adapter started its local server, the bridge then failed to start: the fault is raised and
    the one server it started is gone."""
    from wsconf.adapters import provider_kit
    from wsconf.adapters.base import AdapterFault

    pidfile = tmp_path / "servers.pids"
    monkeypatch.setenv(provider_kit.PIDFILE_ENV, str(pidfile))
    monkeypatch.setattr(provider_kit, "bridge_script", lambda: tmp_path / "no-such-bridge.mjs")
    with pytest.raises(AdapterFault):
        make_adapter()
    pids = pids_in(pidfile)
    assert len(pids) == 1 and not server_alive(pids[0], marker)
