"""The wsconf command as people use it."""
from __future__ import annotations

import json

from conftest import REPO
from wsconf.cli import main
from wsconf.spec import load_spec

import yaml


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_coverage_lists_every_claim(capsys):
    spec = load_spec()
    code, out, err = run(capsys, "coverage")
    assert code == 0
    listed = {line.split()[0] for line in out.splitlines() if line.strip()}
    assert listed == set(spec.claims)
    assert f"{len(spec.claims)} claims:" in err


def test_show_prints_claims_setup_call_and_expected_result(capsys):
    code, out, _ = run(capsys, "show", "read_file.output.trailing_newline_extra_row")
    assert code == 0
    assert "tools.read.output.split_newline" in out
    assert "mastra_workspace_read_file(" in out
    assert "returns this text:" in out


def test_show_suggests_close_ids(capsys):
    code, _, err = run(capsys, "show", "trailing_newline")
    assert code == 2 and "read_file.output.trailing_newline_extra_row" in err


def test_list_filters_by_tool_and_tag(capsys):
    code, out, _ = run(capsys, "list", "--tool", "read_file", "--tag", "containment")
    ids = [line.split()[0] for line in out.splitlines()]
    spec = load_spec()
    assert ids == [c.id for c in spec.cases if c.tool == "read_file" and "containment" in c.tags]
    assert code == 0 and len(ids) >= 10


def test_export_writes_the_whole_corpus(tmp_path, capsys):
    target = tmp_path / "corpus.json"
    assert run(capsys, "export", "-o", str(target))[0] == 0
    corpus = json.loads(target.read_text())
    spec = load_spec()
    assert len(corpus["cases"]) == len(spec.cases)
    assert len(corpus["claims"]) == len(spec.claims)
    assert {c["id"] for c in corpus["capabilities"]} == set(spec.capabilities)


def test_lint_is_clean(capsys):
    code, out, err = run(capsys, "lint")
    assert (code, out) == (0, "")


def test_smoke_on_the_reference(capsys):
    code, out, _ = run(capsys, "smoke", "reference")
    assert code == 0, out
    assert "ok: wsref" in out and "All good" in out


def test_expectations_update_writes_into_the_ports_configured_folder(tmp_path, capsys, monkeypatch):
    """`wsconf expectations NAME results --update` in a port's repository rewrites the file `wsconf run`
    reads (the config's `expectations` folder), never the bundled folder inside site-packages."""
    from wsconf.session import expectations
    results = tmp_path / "results.jsonl"
    results.write_text(json.dumps({"id": "read_file.output.empty_file", "outcome": "failed",
                                   "message": "step 'read': the text differs", "detail": None}) + "\n")
    (tmp_path / "wsconf.toml").write_text('adapter = "cmd:./port"\nexpectations = "mine"\n')
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "toy-port.yaml").write_text(
        "implementation: toy-port\nfailures:\n  read_file.output.empty_file: the reviewed reason\n")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "expectations", "toy-port", str(results))
    assert code == 0 and out == expectations.dump("toy-port", {"read_file.output.empty_file": "the reviewed reason"})
    assert yaml.safe_load(out)["failures"] == {"read_file.output.empty_file": "the reviewed reason"}  # valid YAML
    code, _, err = run(capsys, "expectations", "toy-port", str(results), "--update")
    assert code == 0 and str(tmp_path / "mine" / "toy-port.yaml") in err
    assert expectations.load("toy-port", tmp_path / "mine") == {"read_file.output.empty_file": "the reviewed reason"}
    assert not expectations.path_for("toy-port").exists()
    code, _, err = run(capsys, "expectations", "toy-port", str(results), "--update", "--expectations", "other")
    assert code == 0 and (tmp_path / "other" / "toy-port.yaml").exists()


def test_show_names_every_kind_of_step_by_what_it_calls():
    """`list tools` heads only the list_tools steps; every other kind says what it calls (its op)."""
    from wsconf.reports.case_text import case_lines
    spec = load_spec()
    heads = {"tool": "", "fs": "(the `fs` op)", "workspace": "(the `workspace` op)",
             "list_tools": "as the `tools` op lists them", "tool_info": "with `size` measured by the harness",
             "retool": "(the `retool` op)", "hook_log": "(the `hookLog` op)", "agent": "(the `agent` op)",
             "group": "(the `group` op)", "concurrent": "(the `calls` op)", "needs_approval": "(the `needsApproval` op)",
             "wait": "the harness waits until", "host": "the harness changes the tree"}
    seen = set()
    for case in spec.cases:
        lines = [line for line in case_lines(case, spec) if line.startswith("Step ")]
        assert len(lines) == len(case.steps), case.id
        for step, line in zip(case.steps, lines):
            (kind,) = [k for k in heads if k in step]
            called = f"{step['tool']}(" if kind == "tool" else ""
            assert line.startswith(f"Step {step['id']}: {called}") and heads[kind] in line, (case.id, line)
            seen.add(kind)
    assert seen == set(heads)


def test_show_says_the_harness_measures_a_descriptions_size(capsys):
    code, out, _ = run(capsys, "show", "descriptions.read_file")
    assert code == 0
    assert ("Step info: tool_info mastra_workspace_read_file: that tool as the `tools` op lists it, with `size` "
            "measured by the harness from its description (JavaScript string length, UTF-8 bytes, lines, o200k_base "
            "tokens), not answered by the implementation") in out.splitlines()


def test_show_explains_the_glyphs_it_uses(capsys):
    code, out, _ = run(capsys, "show", "read_file.output.trailing_newline_extra_row")
    assert code == 0 and out.splitlines()[-1] == "Glyphs: ⏎̸ the text has no final newline"
    tabs = next(c for c in load_spec().cases if any("\t" in str(v) for v in (c.setup.get("files") or {}).values()))
    code, out, _ = run(capsys, "show", tabs.id)
    assert "⇥ a tab" in out.splitlines()[-1]
    code, out, _ = run(capsys, "show", "descriptions.read_file")
    assert "Glyphs" not in out  # nothing shown literally, nothing to explain


def _results_file(path, records, implementation="toy-port"):
    lines = [{"run": {"implementation": implementation}}] + records
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    return path


def test_expectations_from_a_partial_run_changes_only_the_cases_it_ran(tmp_path, capsys):
    """A results file of three cases: the failing new one is drafted, the listed one that passes is
    removed, the listed one still failing keeps its reason; the 139 entries of cases it did not run stay."""
    import yaml

    from wsconf.session import expectations
    folder = tmp_path / "exp"
    others = {f"read_file.other.case_{n:03}": f"reason {n}" for n in range(139)}
    listed = {**others, "read_file.t.fixed": "was broken", "read_file.t.still": "still broken",
              "read_file.t.unsupported": "needs media"}
    expectations.write("toy-port", listed, folder)
    results = _results_file(tmp_path / "r.jsonl", [
        {"id": "read_file.t.new", "outcome": "failed", "message": "step 'read': the text differs: \"a\" vs 'b'"},
        {"id": "read_file.t.fixed", "outcome": "xpass", "message": "listed but passed"},
        {"id": "read_file.t.still", "outcome": "xfail", "message": "still broken", "detail": "step 'read': differs"},
        {"id": "read_file.t.unsupported", "outcome": "unsupported", "message": "needs media"},
        {"id": "read_file.t.fine", "outcome": "passed", "message": ""}])
    code, out, err = run(capsys, "expectations", "toy-port", str(results), "--expectations", str(folder))
    drafted = {**others, "read_file.t.new": "REVIEW: step 'read': the text differs: \"a\" vs 'b'",
               "read_file.t.still": "still broken", "read_file.t.unsupported": "needs media"}
    assert code == 0 and yaml.safe_load(out) == {"implementation": "toy-port", "failures": drafted}
    assert err.splitlines() == [
        f"draft of {folder}/toy-port.yaml: 142 entries (1 new, 1 removed as passing, 140 kept: cases {results} did not "
        "run)", "1 entries start with 'REVIEW:': write the real reason of each (what the implementation does and why) "
        "before committing; `wsconf run` fails while any is left"]
    assert expectations.load("toy-port", folder) == listed  # printed, not written
    code, out, err = run(capsys, "expectations", "toy-port", str(results), "--expectations", str(folder), "--update")
    assert (code, out) == (0, "") and err.startswith(f"wrote {folder}/toy-port.yaml: 142 entries")
    assert expectations.load("toy-port", folder) == drafted


def test_expectations_refuse_another_implementations_results(tmp_path, capsys):
    results = _results_file(tmp_path / "r.jsonl", [{"id": "read_file.t.a", "outcome": "failed", "message": "x"}],
                            implementation="@mastra/core")
    code, out, err = run(capsys, "expectations", "toy-port", str(results), "--expectations", str(tmp_path))
    assert (code, out) == (2, "")
    assert err == f"wsconf expectations: {results} holds the results of '@mastra/core', not 'toy-port'\n"


DOCS = ["README.md", "FINDINGS.md", "ARCHITECTURE.md", "spec/README.md", "spec/protocol.md", "spec/adapter.md",
        "spec/first-port.md",
        "tools/mastra-bridge/README.md", *[f"examples/{p.name}/README.md" for p in (REPO / "examples").iterdir()]]


def test_flags_are_named_as_wsconf_run_takes_them():
    """The docs and the harness's messages name a flag as `wsconf run` takes it (--no-expectations,
    --hermetic, --timeout, --max-line); the plugin's --wsconf-X spelling only beside plain pytest."""
    import re
    for doc in DOCS:
        for paragraph in (REPO / doc).read_text(encoding="utf-8").split("\n\n"):
            if "--wsconf-" in paragraph:
                assert "pytest" in paragraph, f"{doc}: --wsconf-... outside a pytest command line:\n{paragraph}"
    plugin = (REPO / "conformance/wsconf/session/plugin.py").read_text()
    options = re.findall(r'addoption\("--wsconf-([a-z-]+)"', plugin)
    from wsconf.cli import build_parser
    commands = build_parser()._subparsers._group_actions[0].choices
    offered = {flag.removeprefix("--") for name in ("run", "properties") for action in commands[name]._actions
               for flag in action.option_strings}
    assert len(options) > 10 and [o for o in options if o not in offered] == []
    from wsconf.isolation.confine import choose
    assert "(--unconfined)" in choose("off").describe()


def test_a_closed_pipe_ends_the_listing_quietly():
    """`wsconf list | head -1`: no BrokenPipeError traceback, the status of a program killed by SIGPIPE."""
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "wsconf.cli", "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=60) == 141
    assert first.startswith(b"agent.") and proc.stderr.read() == b""


def test_a_tool_typo_in_the_config_is_refused_with_file_line_and_key(tmp_path, capsys, monkeypatch):
    (tmp_path / "wsconf.toml").write_text('adapter = "reference"\n# the tools it has\ntools = ["read_file", "raed_file"]\n')
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "run")
    known = "ast_edit, delete, edit_file, execute_command, file_stat, get_process_output, grep, index, kill_process, " \
            "list_files, lsp_inspect, mkdir, read_file, search, skill, skill_read, skill_search, write_file"
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == (f"wsconf: bad config: {tmp_path}/wsconf.toml:3: tools: unknown tool(s) 'raed_file'; "
                                    f"the spec's tools are {known}")
    code, out, err = run(capsys, "run", "--tools", "read_file,lsit_files")
    assert (code, err.splitlines()[-1]) == (2, f"wsconf run: --tools: unknown tool(s) 'lsit_files'; the spec's tools "
                                               f"are {known}")


def test_the_header_names_the_expectations_file_it_looked_for(tmp_path):
    from conftest import run_suite
    (tmp_path / "mine").mkdir()  # a folder that is missing is refused (test_bad_input.py); the file in it may be
    code, records, out = run_suite(tmp_path, "reference", "--wsconf-expectations", str(tmp_path / "mine"), "-k",
                                   "read_file.output.trailing_newline_extra_row")
    assert code == 0, out[-2000:]
    assert (f"expectations:   none: no {tmp_path}/mine/wsref.yaml (named after the implementation's name in hello, "
            "'wsref') (every failure counts)") in out.splitlines()


def test_the_readme_names_only_modules_that_exist():
    """"Why some libraries are ported" and the layout name reference modules by file: each exists."""
    import re
    readme = (REPO / "README.md").read_text()
    named = set(re.findall(r"`([a-z_/]+\.py)`", readme))
    assert "picomatch.py" in named
    where = [REPO, REPO / "reference" / "wsref" / "js", REPO / "conformance" / "wsconf",
             REPO / "conformance" / "wsconf" / "adapters"]
    assert [name for name in sorted(named) if not any((folder / name).is_file() for folder in where)] == []


def test_the_first_port_guide_names_the_six_ops_and_the_file_capabilities():
    """spec/first-port.md and the rule `wsconf lint` holds the cases to (spec/ops.py) say the same."""
    import re

    from wsconf.spec.ops import CORE_OPS, FILE_CAPABILITIES
    guide = (REPO / "spec" / "first-port.md").read_text()
    ops_table = guide.split("## 2. Answer six ops", 1)[1].split("## 3.", 1)[0]
    assert re.findall(r"^\| `([a-z]+)` \|", ops_table, re.M) == list(CORE_OPS)
    capabilities_table = guide.split("## 3. Declare what your files can do", 1)[1].split("## 4.", 1)[0]
    assert sorted(re.findall(r"^\| `([a-z_]+)` \|", capabilities_table, re.M)) == sorted(FILE_CAPABILITIES)
    assert set(FILE_CAPABILITIES) <= set(load_spec().capabilities)


def test_init_prints_the_guide_and_copies_an_example(tmp_path, capsys):
    code, out, _ = run(capsys, "init", "--guide")
    assert code == 0 and out == (REPO / "spec" / "first-port.md").read_text()
    code, out, _ = run(capsys, "init", "--example", "python-port", "--directory", str(tmp_path / "ex"))
    assert code == 0 and (tmp_path / "ex" / "port.py").read_text() == (REPO / "examples/python-port/port.py").read_text()
    code, _, err = run(capsys, "init", "--example", "rust-port", "--directory", str(tmp_path / "other"))
    assert (code, err) == (2, "wsconf init: no example 'rust-port'; the examples are node-port, python-port\n")
    code, _, err = run(capsys, "init")
    assert (code, err) == (2, "wsconf init: --adapter and --implementation needed (or --guide, --example NAME, or --matrix N)\n")


def test_run_passes_every_option_on_to_the_plugin(monkeypatch):
    """Each of wsconf run's options reaches pytest as the plugin names it, 0 included (--fresh 0)."""
    import pytest as pytest_module
    seen = []
    monkeypatch.setattr(pytest_module, "main", lambda argv: seen.append(argv) or 0)
    assert main(["run", "--adapter", "reference", "-n", "2", "-k", "read_file", "--tool", "a", "--tool", "b",
                 "--tag", "t", "--claim", "c", "--ids", "ids.txt", "--results", "r.jsonl", "--junitxml", "j.xml", "-x",
                 "--no-expectations", "--hermetic", "--max-line", "1MB", "--keep-outputs", "2MB",
                 "--all-versions", "--fresh", "0", "--fresh-seed", "0", "--all-tools", "--wait-workers", "0"]) == 0
    passed = seen[0][seen[0].index("-W") + 2:]
    assert passed == ["-n", "2", "-k", "read_file", "--wsconf-tool", "a", "--wsconf-tool", "b", "--wsconf-tag", "t",
                      "--wsconf-claim", "c", "--wsconf-ids", "ids.txt", "--wsconf-results", "r.jsonl",
                      "--junitxml", "j.xml", "-x", "--wsconf-no-expectations", "--wsconf-hermetic",
                      "--wsconf-max-line", "1MB", "--wsconf-keep-outputs", "2MB", "--wsconf-all-versions",
                      "--wsconf-fresh", "0", "--wsconf-fresh-seed", "0", "--wsconf-all-tools",
                      "--wsconf-wait-workers", "0"]
