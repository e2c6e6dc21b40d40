"""A second real provider: the suite against @mastra/s3 (adapter `mastra-s3`) on a local moto
S3 server that the adapter starts and stops itself."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BRIDGE, REPO, SPEC
from wsconf import expectations
from wsconf.adapters.base import AdapterFault
from wsconf.report import load_results
from wsconf.spec import load_spec

IMPLEMENTATION = "@mastra/s3"


def s3_missing_reason() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed: the bridge cannot run"
    for package in ("core", "s3"):
        if not (BRIDGE / "node_modules" / "@mastra" / package).exists():
            return f"tools/mastra-bridge/node_modules/@mastra/{package} is missing: run `make setup` (npm ci)"
    return moto_missing_reason()


def moto_missing_reason() -> str | None:
    for module in ("moto", "flask", "werkzeug"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed: the local S3 server needs moto[server] (pip install -e '.[s3]')"
    return None


def moto_alive(pid: int) -> bool:
    """Is this pid still a running (not zombie) moto server?"""
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
    return state != "Z" and "moto" in cmdline


@pytest.mark.skipif(s3_missing_reason() is not None, reason=s3_missing_reason() or "")
def test_the_s3_provider_has_no_unexpected_results(tmp_path):
    # Listed failures are checked here rather than by the plugin (--wsconf-no-expectations): the
    # same rule (a listed case must fail, an unlisted one must not), at a fraction of the run time.
    results, pidfile = tmp_path / "s3.jsonl", tmp_path / "moto.pids"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", str(SPEC / "cases"), "-q", "-p", "no:cacheprovider", "--tb=no",
         "-n", "2", "--wsconf-adapter", "mastra-s3", "--wsconf-no-expectations", "--wsconf-results", str(results)],
        capture_output=True, text=True, cwd=REPO, timeout=600, env={**os.environ, "WSCONF_MOTO_PIDFILE": str(pidfile)})
    output = (proc.stdout + proc.stderr)[-3000:]
    records = load_results(results) if results.exists() else []
    spec = load_spec()
    assert len(records) == len(spec.cases), output

    assert {r["implementation"] for r in records} == {IMPLEMENTATION}, output
    errors = {r["id"]: r["message"][:500] for r in records if r["outcome"] == "error"}
    assert errors == {}
    expected = expectations.load(IMPLEMENTATION)
    assert expected, "conformance/expectations/mastra-s3.yaml is missing or empty"
    assert sorted(set(expected) - {c.id for c in spec.cases}) == [], "expectations naming no existing case"
    failed = {r["id"]: r["message"][:800] for r in records if r["outcome"] == "failed"}
    unexpected = {case: msg for case, msg in failed.items() if case not in expected}
    assert unexpected == {}, "failures not in the expectations file"
    outcomes = {r["id"]: r["outcome"] for r in records}
    unexpected_passes = sorted(case for case in expected if outcomes.get(case) != "failed")
    assert unexpected_passes == [], "listed in the expectations file but did not fail (passed or unsupported)"

    # Every server the run started (one per xdist worker) is gone.
    pids = [int(p) for p in pidfile.read_text().split()] if pidfile.exists() else []
    assert pids, "no moto server was started"
    assert [p for p in pids if moto_alive(p)] == []


@pytest.mark.skipif(moto_missing_reason() is not None, reason=moto_missing_reason() or "")
def test_the_server_is_stopped_when_the_bridge_cannot_start(monkeypatch, tmp_path):
    from wsconf.adapters import s3

    pidfile = tmp_path / "moto.pids"
    monkeypatch.setenv(s3.PIDFILE_ENV, str(pidfile))
    monkeypatch.setattr(s3, "bridge_script", lambda: tmp_path / "no-such-bridge.mjs")
    with pytest.raises(AdapterFault):
        s3.S3Adapter(timeout=10)
    pids = [int(p) for p in pidfile.read_text().split()]
    assert len(pids) == 1 and not moto_alive(pids[0])


@pytest.mark.skipif(moto_missing_reason() is not None, reason=moto_missing_reason() or "")
def test_the_server_context_manager_answers_then_stops():
    import urllib.request

    from wsconf.adapters.s3 import MotoServer

    with MotoServer(bucket="probe") as server:
        assert server.endpoint.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(server.endpoint + "/probe", timeout=5) as response:  # the bucket exists
            assert response.status == 200
        pid = server.proc.pid
    assert not moto_alive(pid)
