"""A second real provider: the suite against @mastra/s3 (adapter `mastra-s3`) on a local moto
S3 server that the adapter starts and stops itself (the provider kit, adapters/provider_kit.py)."""
from __future__ import annotations

import importlib.util
import urllib.request

import pytest

from provider_suite import check_server_stopped_when_bridge_cannot_start, bridge_missing_reason, check_whole_suite, server_alive


def moto_missing_reason() -> str | None:
    for module in ("moto", "flask", "werkzeug"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed: the local S3 server needs moto[server] (pip install -e '.[s3]')"
    return None


def s3_missing_reason() -> str | None:
    return bridge_missing_reason("s3") or moto_missing_reason()


@pytest.mark.skipif(s3_missing_reason() is not None, reason=s3_missing_reason() or "")
@pytest.mark.long_running(180)
def test_the_s3_provider_has_no_unexpected_results(tmp_path):
    check_whole_suite(tmp_path, "mastra-s3", "@mastra/s3", marker="moto", timeout=600)


@pytest.mark.skipif(moto_missing_reason() is not None, reason=moto_missing_reason() or "")
def test_the_server_is_stopped_when_the_bridge_cannot_start(monkeypatch, tmp_path):
    from wsconf.adapters import s3

    check_server_stopped_when_bridge_cannot_start(monkeypatch, tmp_path, lambda: s3.S3Adapter(timeout=10), "moto")


@pytest.mark.skipif(moto_missing_reason() is not None, reason=moto_missing_reason() or "")
def test_the_server_context_manager_answers_then_stops():
    from wsconf.adapters.s3 import MotoServer

    with MotoServer(bucket="probe") as server:
        assert server.endpoint.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(server.endpoint + "/probe", timeout=5) as response:  # the bucket exists
            assert response.status == 200
        pid = server.proc.pid
    assert not server_alive(pid, "moto")
