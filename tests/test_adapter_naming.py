"""Every way a user can name an adapter leads to a working one."""
from __future__ import annotations

import os
import sys
import time

import pytest

from conftest import bridge_missing_reason
from wsconf.adapters.registry import load_adapter
from wsconf.adapters.reference import ReferenceAdapter
from wsconf.adapters.subprocess import SubprocessAdapter
from wsconf.isolation.tree import make_tree


def check(adapter):
    try:
        assert "filesystem" in adapter.capabilities
        # a case's folder: the one place a confined implementation may work in
        tree = make_tree()
        tree.lay_out({})
        try:
            session = adapter.open(str(tree.root), str(tree.outside), str(tree.home), {})
            assert session.call("mastra_workspace_read_file", {"path": "x.txt"}) == {
                "kind": "error", "message": "File not found: x.txt", "code": "ENOENT", "name": "FileNotFoundError"}
            session.close()
        finally:
            tree.remove()
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
    with pytest.raises(ValueError, match=r"use reference, mastra, mastra@<version>, mastra-s3, mastra-gcs, "
                                         r"mastra-sandboxfs, mastra-code \(each also @<version>\), cmd:<command>, module:Class"):
        load_adapter("nonsense")


PORT = '''
import time
from wsconf.adapters.base import Adapter, Session

class PortSession(Session):
    def call(self, tool, args, options=None):
        if args["path"] == "hang.txt":
            time.sleep(3600)
        if args["path"] == "bug.txt":
            raise KeyError("no such key")
        return {"kind": "text", "value": "ok", "model": None}

class PortAdapter(Adapter):
    name, version, capabilities = "my-port", "0.1", frozenset({"filesystem"})

    def open(self, root, outside, home, workspace):
        return PortSession()
'''


@pytest.fixture
def port_repo(tmp_path, monkeypatch):
    """A port's repository with its adapter module, where `wsconf run` starts."""
    (tmp_path / "myport_adapter.py").write_text(PORT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    yield tmp_path
    sys.modules.pop("myport_adapter", None)


def test_a_module_class_adapter_is_found_in_the_current_folder(port_repo):
    adapter = load_adapter("myport_adapter:PortAdapter")
    assert adapter.name == "my-port"
    with pytest.raises(ModuleNotFoundError, match=f"No module named 'nowhere_port' .looked on sys.path and in {port_repo}"):
        load_adapter("nowhere_port:PortAdapter")


def test_a_python_adapter_that_hangs_times_out_and_the_next_call_runs(port_repo):
    from wsconf.adapters.base import AdapterFault, AdapterTimeout
    adapter = load_adapter("myport_adapter:PortAdapter", timeout=0.5)
    session = adapter.open("/r", "/o", "/h", {})
    started = time.monotonic()
    with pytest.raises(AdapterTimeout, match=r"^adapter did not answer 'call' within 0.5 s"):
        session.call("mastra_workspace_read_file", {"path": "hang.txt"})
    assert time.monotonic() - started < 2
    assert session.call("mastra_workspace_read_file", {"path": "a.txt"})["value"] == "ok"
    # A bug in the adapter is an adapter fault naming the exception and where it was raised.
    with pytest.raises(AdapterFault, match=r"^adapter raised KeyError: 'no such key' \(at .*myport_adapter.py:10 in call\)$"):
        session.call("mastra_workspace_read_file", {"path": "bug.txt"})
    adapter.close()


def test_the_in_process_reference_gives_the_harness_its_home_back(tmp_path, monkeypatch):
    """wsref sets HOME to the case's folder for its calls; when the session closes (or fails to open)
    the harness's HOME is back, so code later in this process (the release cache under ~/.cache)
    does not look inside a case's folder."""
    monkeypatch.setenv("HOME", str(tmp_path / "harness-home"))
    adapter = ReferenceAdapter()
    root, home = tmp_path / "root", tmp_path / "case-home"
    root.mkdir(), home.mkdir()
    session = adapter.open(str(root), str(tmp_path), str(home), {})
    session.fs("exists", ["a.txt"])
    assert os.environ["HOME"] == str(home)
    session.close()
    assert os.environ["HOME"] == str(tmp_path / "harness-home")
    adapter.close()
