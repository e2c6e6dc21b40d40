"""wsconf as a port's maintainer gets it: the built wheel installed in a fresh venv, used from a
folder outside the checkout. The spec, fixtures and bridge sources come from the wheel itself."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from wsconf.session import expectations
from wsconf.spec import load_spec

EXAMPLE = REPO / "examples" / "node-port"
NO_NODE = shutil.which("node") is None


def _counts(stdout: str) -> str:
    return stdout.strip().splitlines()[-1].split(" in ")[0]


def _run(argv, cwd, timeout=600, env=None):
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def seeded_venv(venv: Path) -> None:
    """A venv whose dependencies are this one's (a .pth naming this interpreter's site-packages), so
    the wheel installs with --no-deps, offline and in seconds. This venv's own wsconf is an editable
    finder that a plain path line does not run: `import wsconf` can only find the wheel's copy."""
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], venv.parent)
    assert made.returncode == 0, made.stderr
    purelib = _run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                   venv.parent).stdout.strip()
    Path(purelib, "_wsconf_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(wsconf executable, a working folder outside the checkout)."""
    base = tmp_path_factory.mktemp("wheel")
    wheels = base / "dist"
    # --no-build-isolation: the build backend (setuptools>=77, the dev extra) is this venv's, not downloaded
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels),
                  str(REPO)], base)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-3000:]
    (wheel,) = wheels.glob("wsconf-*.whl")
    venv = base / "venv"
    seeded_venv(venv)
    pip = _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", "--no-deps",
                "--no-index", str(wheel)], base, timeout=900)
    assert pip.returncode == 0, pip.stdout[-2000:] + pip.stderr[-3000:]
    # the wheel's own requirements are met by what the venv sees, and its modules are the wheel's
    check = _run([str(venv / "bin" / "python"), "-c", CHECK_INSTALL], base)
    assert check.returncode == 0 and check.stdout == "", check.stdout[-2000:] + check.stderr[-3000:]
    work = base / "elsewhere"
    work.mkdir()
    assert not work.is_relative_to(REPO)
    return venv / "bin" / "wsconf", work


CHECK_INSTALL = """
import importlib.metadata as md, sys, sysconfig, wsconf, wsref
from packaging.requirements import Requirement
site = sysconfig.get_paths()["purelib"]
for module in (wsconf, wsref):
    if not module.__file__.startswith(site + "/"):
        print(module.__name__, "is imported from", module.__file__, "not from", site)
dist = md.distribution("wsconf")
if not str(dist.locate_file("")).startswith(site):
    print("wsconf's metadata is not the wheel's:", dist.locate_file(""))
for text in dist.requires or []:
    req = Requirement(text)
    if req.marker is not None and not req.marker.evaluate({"extra": ""}):
        continue
    try:
        version = md.version(req.name)
    except md.PackageNotFoundError:
        print("missing requirement", text)
        continue
    if not req.specifier.contains(version, prereleases=True):
        print("requirement", text, "not met by", version)
"""


def test_the_wheel_carries_the_spec(installed):
    wsconf, work = installed
    listed = _run([str(wsconf), "list"], work)
    assert listed.returncode == 0, listed.stderr
    assert len(listed.stdout.splitlines()) == len(load_spec().cases)
    shown = _run([str(wsconf), "show", "read_file.output.trailing_newline_extra_row"], work)
    assert shown.returncode == 0, shown.stderr
    assert "  file a.txt:\n    | one\n    | two\n" in shown.stdout  # contents literally, not YAML
    assert "    |      3→  ⏎̸ (no final newline)" in shown.stdout
    coverage = _run([str(wsconf), "coverage"], work)
    assert coverage.returncode == 0, coverage.stderr
    assert "claims:" in coverage.stderr


def test_the_reference_runs_from_the_wheel(installed):
    wsconf, work = installed
    results = work / "ref.jsonl"
    run = _run([str(wsconf), "run", "--adapter", "reference", "-n", "2", "--tool", "read_file",
                "--results", str(results)], work)
    assert run.returncode == 0, run.stdout[-3000:]
    header = json.loads(results.read_text().splitlines()[0])["run"]
    assert header["implementation"] == "wsref"
    assert "site-packages/wsconf/_bundled/spec" in header["spec"]
    assert "implementation: wsref 0.1.0  (adapter reference, protocol 1)" in run.stdout
    # its report site, from the wheel alone (the bundled spec, claims and expectations)
    site = _run([str(wsconf), "site", str(results), "--no-matrix", "-o", str(work / "site")], work)
    assert site.returncode == 0, site.stderr
    index = (work / "site" / "index.html").read_text()
    assert 'href="implementation/wsref-0.1.0.html">wsref 0.1.0</a>' in index
    case = (work / "site" / "case" / "read_file.output.trailing_newline_extra_row.html").read_text()
    assert "|      3→  ⏎̸ (no final newline)" in case and 'id="wsref-0.1.0"' in case


@pytest.mark.skipif(NO_NODE, reason="node is not installed: the example port is a Node program")
def test_init_then_run_against_the_node_example(installed):
    """A port's first hour with the JavaScript example, from the wheel alone: `wsconf init` writes the
    config, then the example's port and its reviewed expectations run green."""
    wsconf, work = installed
    example, repo = work / "node-example", work / "my-port"
    copied = _run([str(wsconf), "init", "--example", "node-port", "--directory", str(example)], work)
    assert copied.returncode == 0, copied.stderr
    repo.mkdir()
    shutil.copy(example / "port.mjs", repo / "port.mjs")
    init = _run([str(wsconf), "init", "--adapter", "cmd:node port.mjs", "--implementation", "example-node-port",
                 "--tools", "read_file,write_file"], repo)
    assert init.returncode == 0, init.stderr
    assert sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file()) == [
        ".github/workflows/wsconf.yml", "port.mjs", "wsconf-expectations/example-node-port.yaml", "wsconf.toml"]
    workflow = (repo / ".github" / "workflows" / "wsconf.yml").read_text()
    assert "actions/setup-node@v4" in workflow  # its adapter runs node
    assert '- run: python -m pip install "./wsconf-0.1.0-py3-none-any.whl"' in workflow
    # the reviewed list of what the example does not do yet
    shutil.copy(example / "wsconf-expectations" / "example-node-port.yaml", repo / "wsconf-expectations")
    run = _run([str(wsconf), "run"], repo)
    assert run.returncode == 0, run.stdout[-3000:]
    listed = len(expectations.load("example-node-port", repo / "wsconf-expectations"))  # groups and single entries
    for line in ("implementation: example-node-port 0.1.0  (adapter cmd:node port.mjs, protocol 1)",
                 "capabilities:   filesystem",
                 "tools:          read_file, write_file (from the configuration)",
                 f"expectations:   {repo}/wsconf-expectations/example-node-port.yaml ({listed} entries)",
                 f"cases selected: {len(load_spec().cases)}"):
        assert line in run.stdout, run.stdout[:3000]
    records = [json.loads(line) for line in (repo / "results" / "wsconf.jsonl").read_text().splitlines()]
    assert records[0]["run"]["tools"] == ["read_file", "write_file"]
    from wsconf.isolation.confine import why_not  # confined from the wheel too, where the kernel allows
    assert records[0]["run"]["confinement"].startswith("confined (bwrap)" if why_not() is None else "UNCONFINED")
    assert list(records[-1]) == ["end"]
    cases = [r for r in records[1:-1] if not r.get("fresh")]
    fresh = [r for r in records[1:-1] if r.get("fresh")]
    assert sorted(r["id"] for r in fresh) == [f"fresh.{t}.{n}" for t in ("read_file", "write_file") for n in (1, 2, 3)]
    outcomes = {r["outcome"] for r in cases}
    assert outcomes == {"passed", "xfail", "unsupported"}
    lacking = {r["message"] for r in cases if r["message"].startswith("example-node-port does not implement")}
    assert "example-node-port does not implement mastra_workspace_grep" in lacking
    # pytest's own count holds the fresh cases too: a fresh case not answered as the reference is xfail
    # (read_file's, named under fresh: with the port's reason)
    fresh_passed = sum(r["outcome"] == "passed" for r in fresh)
    assert {r["outcome"] for r in fresh if r["tool"] == "write_file"} == {"passed"}
    assert _counts(run.stdout) == (f"{62 + fresh_passed} passed, {len(load_spec().cases) - 62 - listed} skipped, "
                                   f"{listed + len(fresh) - fresh_passed} xfailed")
    junit = (repo / "results" / "wsconf.xml").read_text()
    assert '<property name="wsconf.implementation" value="example-node-port"' in junit


def test_the_python_example_runs_green_from_the_wheel(installed):
    """The Python example, copied out of the wheel and run from outside the checkout: 212 cases pass
    byte for byte, the 105 it does not do yet are expected failures with reviewed reasons, and the
    summary shows its three tools with what their unsupported cases need."""
    wsconf, work = installed
    example = work / "python-example"
    copied = _run([str(wsconf), "init", "--example", "python-port", "--directory", str(example)], work)
    assert copied.returncode == 0, copied.stderr
    assert sorted(p.name for p in example.iterdir()) == [
        "README.md", "port.py", "tools.json", "tools_from_export.py", "wsconf-expectations", "wsconf.toml"]
    # tools.json is what tools_from_export.py makes of this wheel's export: byte for byte the upstream's
    export = _run([str(wsconf), "export"], example)
    made = subprocess.run([sys.executable, "tools_from_export.py", "read_file", "list_files", "file_stat"],
                          cwd=example, input=export.stdout, capture_output=True, text=True, timeout=60)
    assert made.returncode == 0 and made.stdout == (example / "tools.json").read_text()
    smoke = _run([str(wsconf), "smoke", "cmd:python3 port.py"], example)
    assert smoke.returncode == 0 and "All good" in smoke.stdout, smoke.stdout[-2000:]
    run = _run([str(wsconf), "run"], example)
    assert run.returncode == 0, run.stdout[-3000:]
    failures = yaml.safe_load((example / "wsconf-expectations" / "example-python-port.yaml").read_text())["failures"]
    assert not [r for r in failures.values() if r.startswith("REVIEW:")]
    skipped = len(load_spec().cases) - 212 - len(failures)  # the other tools' cases, and what needs more than it has
    records = [json.loads(line) for line in (example / "results" / "wsconf.jsonl").read_text().splitlines()[1:-1]]
    fresh = sorted((r["id"], r["outcome"]) for r in records if r.get("fresh"))
    # its three tools' fresh cases are answered as the reference answers them, and pytest counts them
    assert fresh == [(f"fresh.{t}.{n}", "passed") for t in ("file_stat", "list_files", "read_file") for n in (1, 2, 3)]
    assert _counts(run.stdout) == f"{212 + 9} passed, {skipped} skipped, {len(failures)} xfailed" and len(failures) == 105
    summary = run.stdout.split("wsconf summary", 1)[1].splitlines()
    assert [line.split()[0] for line in summary[2:6]] == ["file_stat", "list_files", "read_file", "all"]
    assert summary[6] == "(22 tools the implementation does not have are left out of the table; --all-tools shows them)"
    assert any(line.startswith("  read_file: 133 unsupported: 68 need tool_config, 30 call write_file, 29 need media")
               for line in summary)


def test_the_wheel_carries_the_guide_the_examples_and_project_urls(installed):
    wsconf, work = installed
    guide = _run([str(wsconf), "init", "--guide"], work)
    assert guide.returncode == 0 and guide.stdout == (REPO / "spec" / "first-port.md").read_text()
    metadata = _run([str(wsconf.parent / "python"), "-c",
                     "import importlib.metadata as m; print(m.metadata('wsconf').get_all('Project-URL'))"], work)
    assert "Upstream source, https://github.com/mastra-ai/mastra/tree/main/packages/core/src/workspace" in metadata.stdout
    repo = work / "py-port"
    repo.mkdir()
    init = _run([str(wsconf), "init", "--adapter", "cmd:python3 port.py", "--implementation", "py-port",
                 "--install", "git+https://example.invalid/wsconf.git@v0.1.0"], repo)
    assert init.returncode == 0, init.stderr
    workflow = (repo / ".github" / "workflows" / "wsconf.yml").read_text()
    assert "setup-node" not in workflow  # a Python port needs no Node
    assert '- run: python -m pip install "git+https://example.invalid/wsconf.git@v0.1.0"' in workflow


def test_an_implementation_that_cannot_start_ends_the_run_once(installed):
    wsconf, work = installed
    run = _run([str(wsconf), "run", "--adapter", "cmd:sh -c 'echo stderr-line-$((6*7)) >&2; exit 7'"], work)
    assert run.returncode == 3, run.stdout[-2000:]
    out = run.stdout + run.stderr
    assert "the implementation cannot start, so no case was run" in out
    assert out.count("stderr-line-42") == 1  # the tail of its stderr, once
    assert "adapter process exited (code 7) " in out and "'hello'" in out
    assert " passed" not in out and " failed" not in out


def test_without_node_the_mastra_adapter_is_unavailable(installed, tmp_path):
    wsconf, work = installed
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}  # no node, no npm
    run = _run([str(wsconf), "run", "--adapter", "mastra"], work, env=env)
    assert run.returncode == 3, run.stdout[-2000:]
    assert "node and npm not found on PATH: the mastra adapters run the real @mastra/core under Node 20+" in run.stdout


def test_a_bad_config_is_refused_with_file_line_and_key(installed):
    wsconf, work = installed
    (work / "wsconf.toml").write_text('adapter = "reference"\n\ntimeout = "slow"\n')
    try:
        run = _run([str(wsconf), "run"], work)
    finally:
        (work / "wsconf.toml").unlink()
    assert run.returncode == 2
    assert run.stderr == f"wsconf: bad config: {work}/wsconf.toml:3: timeout: expected a number of seconds, got str 'slow'\n"


def test_the_sdist_carries_what_the_wheel_bundles(tmp_path):
    import tarfile
    built = _run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(tmp_path), str(REPO)], tmp_path)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (sdist,) = tmp_path.glob("wsconf-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("spec/claims.yaml", "spec/capabilities.yaml", "spec/schema/cases.schema.json", "spec/protocol.md",
                   "spec/adapter.md", "fixtures/repo/package.json", "conformance/expectations/mastra-core.yaml",
                   "tools/mastra-bridge/bridge.mjs", "tools/mastra-bridge/package-lock.json", "setup.py",
                   "spec/first-port.md", "examples/python-port/port.py", "examples/node-port/port.mjs"):
        assert needed in names, needed
    assert not any("node_modules" in n for n in names)
