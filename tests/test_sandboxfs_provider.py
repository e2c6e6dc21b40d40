"""A fourth real provider: the suite against Mastra Code's SandboxFilesystem (adapter `mastra-sandboxfs`),
a provider over a sandbox with no server (the provider kit, adapters/provider_kit.py), and the kit's
hooks it needs: the case's sandbox shared, a private one closed, the filesystem options it honours,
its files taken from the npm tarball alone (adapters/vendored.py), Mastra Code's tool names."""
from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from conftest import BRIDGE
from provider_suite import bridge_missing_reason, check_whole_suite
from wsconf.adapters import vendored
from wsconf.adapters.base import AdapterFault, AdapterUnavailable
from wsconf.judge.options import unhonoured
from wsconf.session.findings import groups


def sandboxfs_missing_reason() -> str | None:
    reason = bridge_missing_reason("core")
    if reason:
        return reason
    try:
        vendored.ensure_vendored(BRIDGE, "@mastra/code-sdk")
    except AdapterUnavailable as exc:
        return str(exc)
    return None


needs_bridge = pytest.mark.skipif(sandboxfs_missing_reason() is not None, reason=sandboxfs_missing_reason() or "")


@needs_bridge
@pytest.mark.long_running(300)
def test_the_sandboxfs_provider_has_no_unexpected_results(tmp_path):
    records = check_whole_suite(tmp_path, "mastra-sandboxfs", "@mastra/code-sdk", marker=None, timeout=900)
    # What a maintainer reads first (issue #31): the escape, then the data loss; every failure in one
    # group, and a group for every ten failures at most.
    found = groups(records)
    failing = [r for r in records if r["outcome"] in ("failed", "error", "xfail")]
    assert sum(len(g.cases) for g in found) == len(failing)
    assert len(found) <= len(failing) / 10, f"{len(found)} groups for {len(failing)} failures"
    assert [g.harm for g in found[:2]] == ["escape", "data_loss"]
    assert {c["id"] for c in found[0].cases} == {"filesystem.mutation.rmdir_through_link_refused",
                                                 "filesystem.symlinked.outside_link_itself"}
    assert found[1].title == "any call | root: lost file"  # the stale-write check that never fires


@pytest.fixture
def trees():
    """Makes a case's folder, where a confined implementation may work (it reaches nothing else):
    after the adapter starts, which names the uid the folder is handed to."""
    from wsconf.isolation.tree import make_tree
    made = []

    def tree():
        made.append(make_tree())
        made[-1].lay_out({})
        return made[-1]
    yield tree
    for one in made:
        one.remove()


def _session(adapter_class, trees, workspace):
    adapter = adapter_class(timeout=30)
    tree = trees()
    session = adapter.open(str(tree.root), str(tree.outside), str(tree.home), workspace)
    return adapter, session, tree


@needs_bridge
def test_hello_names_the_sdk_and_the_core_it_runs_on_and_the_options_it_honours(tmp_path):
    from wsconf.adapters.sandboxfs import SandboxFsAdapter

    adapter = SandboxFsAdapter(timeout=30)
    try:
        assert (adapter.name, adapter.version) == ("@mastra/code-sdk", "1.0.1")
        assert adapter.dependencies["@mastra/core"] == "1.71.0"
        assert adapter.dependencies["@mastra/code-sdk"] == "1.0.1"
        assert adapter.filesystem_options == {"basePath": True, "id": True, "contained": (True,)}
        # a provider over a sandbox: nothing it cannot represent is declared
        assert not {"local_paths", "posix_errors", "media", "read_only", "allowed_paths"} & adapter.capabilities
    finally:
        adapter.close()


@needs_bridge
def test_the_filesystem_shares_the_cases_sandbox_and_a_private_one_is_not_the_workspaces(trees):
    from wsconf.adapters.sandboxfs import SandboxFsAdapter

    adapter, session, tree = _session(SandboxFsAdapter, trees, {"sandbox": {}})
    try:
        info = session.fs("getInfo", [])["value"]
        sandbox = session.workspace("sandbox.id", [])["value"]
        assert info["metadata"] == {"basePath": str(tree.root), "sandboxId": sandbox}
        session.close()
        session = adapter.open(str(tree.root), str(tree.outside), str(tree.home), {})
        # without a sandbox in the case, the workspace has none (no sandbox tools) ...
        assert session.workspace("sandbox", [])["value"] is None
        names = [t["name"] for t in session.tools()]
        assert "mastra_workspace_execute_command" not in names
        # ... while the filesystem works through its own
        # (fs.writeFile: the write_file tool cannot create a file here, FINDINGS.md)
        assert session.fs("writeFile", ["a.txt", "hi"]) == {"kind": "value", "value": None, "model": None}
        assert (tree.root / "a.txt").read_text() == "hi"
        session.close()
    finally:
        adapter.close()


@needs_bridge
def test_an_option_without_an_equivalent_is_a_fault_naming_it_not_dropped(trees):
    from wsconf.adapters.sandboxfs import SandboxFsAdapter

    adapter = SandboxFsAdapter(timeout=30)
    try:
        tree = trees()
        with pytest.raises(AdapterFault, match="cannot honour the filesystem option readOnly: true"):
            adapter.open(str(tree.root), str(tree.outside), str(tree.home), {"filesystem": {"readOnly": True}})
    finally:
        adapter.close()


def test_unhonoured_names_each_option_and_value_the_declaration_leaves_out():
    declared = {"basePath": True, "contained": (True,)}
    assert unhonoured({"filesystem": {"basePath": "/x", "contained": True}}, declared) == []
    assert unhonoured({"filesystem": {"contained": False, "readOnly": True}}, declared) == [
        "contained = false", "readOnly"]
    assert unhonoured({"filesystem": {"contained": 1}}, declared) == ["contained = 1"]  # 1 is not true
    assert unhonoured({"filesystem": {"readOnly": True}}, None) == []  # no declaration: every option
    assert unhonoured({"filesystem": None}, declared) == []
    assert unhonoured({"filesystem": {"$fn": "filesystemResolver", "options": {"readOnly": True}}}, declared) == []


def test_a_case_with_an_unhonoured_option_is_unsupported_naming_it():
    from wsconf.judge.runner import UNSUPPORTED, run_case
    from wsconf.spec import load_spec

    class Declared:
        name, version = "p", "1"
        capabilities = frozenset(["filesystem", "read_only", "fs_interface", "posix_errors", "tool_config", "local_paths"])
        tools = None
        dependencies = {}
        filesystem_options = {"basePath": True}

    case = next(c for c in load_spec().cases if (c.workspace or {}).get("filesystem", {}) == {"readOnly": True}
                and set(c.needs) <= Declared.capabilities)
    result = run_case(case, Declared())
    assert (result.outcome, result.message) == (UNSUPPORTED, "p cannot honour the filesystem option readOnly")


def _tarball(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _bridge_with(tmp_path, integrity: str) -> tuple:
    bridge = tmp_path / "bridge"
    bridge.mkdir()
    pin = {"version": "1.0.0", "integrity": integrity, "folder": "pkg", "files": ["dist/a.js", "LICENSE.md"]}
    (bridge / "vendor.json").write_text(json.dumps({"packages": {"pkg": pin}}))
    return bridge, pin


def test_vendored_extracts_only_the_listed_files_of_a_tarball_with_the_pinned_integrity(monkeypatch, tmp_path):
    data = _tarball({"dist/a.js": b"export const a = 1;\n", "LICENSE.md": b"MIT\n", "dist/b.js": b"other"})
    bridge, _ = _bridge_with(tmp_path, vendored.integrity_of(data))
    calls = []
    monkeypatch.setattr(vendored, "_pack", lambda package, pin: calls.append(package) or data)
    folder = vendored.ensure_vendored(bridge, "pkg")
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == [
        ".wsconf-integrity", "LICENSE.md", "dist/a.js"]
    assert vendored.ensure_vendored(bridge, "pkg") == folder and calls == ["pkg"]  # the stamp: no second pack


def test_vendored_refuses_a_tarball_whose_integrity_is_not_the_pinned_one(monkeypatch, tmp_path):
    data = _tarball({"dist/a.js": b"tampered", "LICENSE.md": b"MIT\n"})
    bridge, pin = _bridge_with(tmp_path, vendored.integrity_of(b"the real one"))

    class Packed:
        returncode, stderr = 0, ""

    def fake_npm(argv, cwd, **kw):
        (Path(cwd) / "pkg-1.0.0.tgz").write_bytes(data)
        return Packed()

    monkeypatch.setattr(vendored.shutil, "which", lambda name: "/usr/bin/npm")
    monkeypatch.setattr(vendored.subprocess, "run", fake_npm)
    with pytest.raises(AdapterUnavailable, match="integrity .* is not the pinned"):
        vendored.ensure_vendored(bridge, "pkg")
    assert not (bridge / "vendor" / "pkg").exists()


def test_vendored_refuses_a_listed_file_that_is_not_a_regular_file(monkeypatch, tmp_path):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        link = tarfile.TarInfo("package/dist/a.js")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
    data = out.getvalue()
    bridge, _ = _bridge_with(tmp_path, vendored.integrity_of(data))
    monkeypatch.setattr(vendored, "_pack", lambda package, pin: data)
    with pytest.raises(AdapterUnavailable, match="dist/a.js is not a regular file"):
        vendored.ensure_vendored(bridge, "pkg")


def test_the_bridge_vendor_pin_is_the_registrys_integrity_of_code_sdk_1_0_1():
    pin = vendored.manifest(BRIDGE)["@mastra/code-sdk"]
    assert pin["version"] == "1.0.1"
    assert pin["integrity"] == ("sha512-/FYXZBrNxnZFY/iZNeRqP2iAE452cD0g9Rl1E126OoQeTS2P4rPpmaO/uC9Knz+Ikl81RldSDoxhXcHPE8d19A==")
    assert pin["files"] == ["dist/agents/sandbox-filesystem.js", "dist/tool-names.js", "LICENSE.md"]


@needs_bridge
def test_mastra_code_renames_the_tools_and_the_cases_ids_reach_them(trees):
    from wsconf.adapters.sandboxfs import MastraCodeAdapter

    adapter, session, tree = _session(MastraCodeAdapter, trees, {
        "tools": {"mastra_workspace_grep": {"name": "my_grep"}, "mastra_workspace_read_file": {"maxOutputTokens": 5}}})
    try:
        assert (adapter.name, adapter.dependencies["@mastra/code-sdk"]) == ("Mastra Code", "1.0.1")
        names = [t["name"] for t in session.tools()]
        # Mastra Code's names, the case's own rename winning over them
        assert names[:4] == ["view", "write_file", "string_replace_lsp", "find_files"] and "my_grep" in names
        assert "search_content" not in names
        (tree.root / "a.txt").write_text("one two three four five six seven eight nine ten\n" * 20)
        result = session.call("mastra_workspace_read_file", {"path": "a.txt"})  # the case's id reaches `view`
        assert result["kind"] == "text" and "truncated" in result["value"]  # with the case's own maxOutputTokens
        session.close()
    finally:
        adapter.close()


def test_a_provider_name_with_a_version_runs_on_that_release(monkeypatch, tmp_path):
    from wsconf.adapters import provider_kit, registry

    asked = []

    def release_script(version):
        asked.append(version)
        return tmp_path / "no-such-bridge.mjs"

    monkeypatch.setattr(provider_kit, "release_script", release_script)
    monkeypatch.setattr(provider_kit, "ensure_vendored", lambda folder, package: asked.append((folder, package)))
    with pytest.raises(AdapterFault):
        registry.load_adapter("mastra-sandboxfs@1.52.1", timeout=5)
    assert asked == ["1.52.1", (tmp_path, "@mastra/code-sdk")]


def test_an_unknown_provider_version_name_is_refused_with_the_names_that_exist():
    from wsconf.adapters import registry

    with pytest.raises(ValueError, match="mastra-sandboxfs, mastra-code"):
        registry.load_adapter("mastra-sandbox@1.0.0")



def test_the_run_header_names_the_filesystem_options_only_when_declared(tmp_path):
    from wsconf.session.header import describe_run, header_lines

    class Declaring:
        name, version, protocol_version, capabilities, dependencies = "p", "1", 1, frozenset(), {}
        filesystem_options = {"id": True, "basePath": True, "contained": (True,)}

    lines = header_lines(describe_run(Declaring(), "p", None, "", None, 0, tmp_path))
    assert "fs options:     basePath, contained (true), id (any other is unsupported)" in lines
    Declaring.filesystem_options = None
    assert not any(line.startswith("fs options") for line in header_lines(
        describe_run(Declaring(), "p", None, "", None, 0, tmp_path)))


def test_a_provider_whose_package_a_release_install_leaves_out_is_unavailable_saying_so(monkeypatch, tmp_path):
    from wsconf.adapters import provider_kit
    from wsconf.adapters.s3 import S3Adapter

    monkeypatch.setattr(provider_kit, "release_script", lambda version: tmp_path / "bridge.mjs")
    with pytest.raises(AdapterUnavailable, match="@mastra/s3 is not installed beside @mastra/core 1.52.1"):
        S3Adapter(core_version="1.52.1")


def test_a_providers_expectations_for_another_core_release_win_for_that_release(tmp_path):
    from wsconf.session import expectations

    (tmp_path / "p.yaml").write_text("failures: {a: any core}\n")
    (tmp_path / "p@mastra-core-1.52.1.yaml").write_text("failures: {b: on 1.52.1}\n")
    assert expectations.load("p", tmp_path, "1.0.1", "1.52.1") == {"b": "on 1.52.1"}
    assert expectations.load("p", tmp_path, "1.0.1", "1.71.0") == {"a": "any core"}
    # @mastra/core itself keeps its own rule: mastra-core@<version>.yaml, by its version
    (tmp_path / "mastra-core@mastra-core-1.52.1.yaml").write_text("failures: {c: never}\n")
    (tmp_path / "mastra-core.yaml").write_text("failures: {d: core}\n")
    assert expectations.load("@mastra/core", tmp_path, "1.52.1", "1.52.1") == {"d": "core"}
