"""Every way a user can name an adapter leads to a working one."""
from __future__ import annotations

import sys

import pytest

from conftest import bridge_missing_reason
from wsconf.adapters.registry import load_adapter
from wsconf.adapters.reference import ReferenceAdapter
from wsconf.adapters.subprocess import SubprocessAdapter


def check(adapter):
    try:
        assert "filesystem" in adapter.capabilities
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            session = adapter.open(tmp, tmp, tmp, {})
            assert session.call("mastra_workspace_read_file", {"path": "x.txt"}) == {
                "kind": "error", "message": "File not found: x.txt", "code": "ENOENT", "name": "FileNotFoundError"}
            session.close()
    finally:
        adapter.close()


def test_default_reference():
    adapter = load_adapter("reference")
    assert isinstance(adapter, ReferenceAdapter) and adapter.name == "wsref"
    check(adapter)


def test_module_colon_class():
    adapter = load_adapter("wsconf.adapters.reference:ReferenceAdapter")
    assert isinstance(adapter, ReferenceAdapter)
    check(adapter)


def test_entry_point_group():
    from importlib.metadata import entry_points
    assert "reference" in {ep.name for ep in entry_points(group="wsconf.adapters")}


def test_cmd_speaks_the_protocol():
    adapter = load_adapter(f"cmd:{sys.executable} -m wsref.server")
    assert isinstance(adapter, SubprocessAdapter) and adapter.name == "wsref"
    check(adapter)


@pytest.mark.skipif(bridge_missing_reason() is not None, reason=bridge_missing_reason() or "")
def test_mastra_bridge():
    adapter = load_adapter("mastra")
    assert (adapter.name, adapter.version) == ("@mastra/core", "1.71.0")
    check(adapter)


def test_unknown_names_say_what_is_accepted():
    with pytest.raises(ValueError, match="use reference, mastra, mastra@<version>, cmd:<command>, module:Class"):
        load_adapter("nonsense")
