"""Bad input ends with one clear sentence naming the file and line, or the option, and its own exit
status (2 for usage and configuration); nothing a previous run wrote is lost on the way."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, results_file

CASE = '''tool: read_file
cases:
  - id: read_file.t.one
    title: one
    claims: [tools.inventory.id_prefix]
    needs: [filesystem]
    steps:
      - id: s1
        tool: mastra_workspace_read_file
        args: {path: nope.txt}
        expect: {error: "File not found: nope.txt"}
'''


def wsconf(*argv, cwd=REPO):
    done = subprocess.run([sys.executable, "-m", "wsconf.cli", *argv], capture_output=True, text=True, cwd=cwd,
                          timeout=300)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def spec(mini_spec):
    (mini_spec / "cases" / "read_file" / "t.yaml").write_text(CASE)
    return mini_spec


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-5", "soon"])
def test_a_timeout_that_is_not_a_number_of_seconds_is_a_usage_error(value):
    code, output = wsconf("run", "--timeout", value)
    assert code == 2
    assert f"argument --timeout: not a number of seconds above 0: {value!r}" in output


def test_a_number_of_wait_workers_that_is_not_one_is_a_usage_error(spec, monkeypatch):
    code, output = wsconf("--spec", str(spec), "run", "-n", "1", "--wait-workers", "some")
    assert code == 2 and "not a number of workers or auto: 'some' (from --wait-workers, or else $WSCONF_WAIT_WORKERS)" in output
    monkeypatch.setenv("WSCONF_WAIT_WORKERS", "-1")
    code, output = wsconf("--spec", str(spec), "run", "-n", "1")
    assert code == 2 and "not a number of workers or auto: '-1'" in output


def test_results_and_junit_in_one_file_is_refused_before_either_is_written(spec, tmp_path):
    same = tmp_path / "out.jsonl"
    same.write_text("what an earlier run wrote\n")
    code, output = wsconf("--spec", str(spec), "run", "--results", str(same), "--junitxml", str(same))
    assert code == 2, output
    assert f"--wsconf-results and --junitxml name the same file ({same}): one would overwrite the other" in output
    assert same.read_text() == "what an earlier run wrote\n"


@pytest.mark.parametrize("name, said", [
    ("cmd:", "`cmd:` needs a command line after the colon, e.g. cmd:node port.mjs"),
    ("cmd:   ", "`cmd:` needs a command line after the colon, e.g. cmd:node port.mjs"),
    ("mastra@", "`mastra@` needs a release after the @, e.g. mastra@1.65.0"),
])
def test_an_adapter_name_that_names_nothing_is_a_usage_error(spec, name, said):
    code, output = wsconf("--spec", str(spec), "run", "--adapter", name)
    assert code == 2, output
    assert f"--wsconf-adapter {name!r}: {said}" in output


def test_an_expectations_folder_that_does_not_exist_is_refused(spec, tmp_path):
    code, output = wsconf("--spec", str(spec), "run", "--expectations", str(tmp_path / "missing"))
    assert code == 2, output
    assert f"--wsconf-expectations {tmp_path / 'missing'}: no such folder" in output


@pytest.mark.parametrize("text, line, said", [
    ("implementation: wsref\nfailures:\n  a: [unclosed\n", 4, "not valid YAML"),
    ("implementation: wsref\nfailures: [read_file.t.one]\n", 2, "failures must be a mapping of case id: reason"),
    ("implementation: wsref\ngroups:\n  - reason: r\n", 3, "a group has exactly reason and cases, got reason"),
    ("implementation: wsref\nfaliures: {}\n", 2, "unknown key 'faliures'"),
])
def test_an_expectations_file_that_cannot_be_read_names_its_line(spec, tmp_path, text, line, said):
    exp = tmp_path / "exp"
    exp.mkdir()
    (exp / "wsref.yaml").write_text(text)
    code, output = wsconf("--spec", str(spec), "run", "--expectations", str(exp))
    assert code == 2, output
    assert f"wsconf: bad expectations file: {exp / 'wsref.yaml'}:{line}: {said}" in output


@pytest.mark.parametrize("config, said", [
    (b'adapter = "reference"\nexpectations = "missing/dir"\n', "wsconf.toml:2: expectations: no such folder: "),
    (b'adapter = "reference"\ntimeout = nan\n', "wsconf.toml:2: timeout: expected a number of seconds above 0, got nan"),
    (b'adapter = "cmd:"\n', "wsconf.toml:1: adapter: `cmd:` needs a command line after the colon"),
    (b'results = "r.jsonl"\njunitxml = "r.jsonl"\n', "wsconf.toml:2: junitxml: the same file as results"),
    (b'adapter = "ref\xe9rence"\n', "wsconf.toml:1: <file>: not UTF-8 (byte 14: b'\\xe9')"),
])
def test_a_config_file_that_cannot_work_stops_the_run(tmp_path, config, said):
    (tmp_path / "wsconf.toml").write_bytes(config)
    code, output = wsconf("run", cwd=tmp_path)
    assert code == 2, output
    assert f"wsconf: bad config: {tmp_path}/{said}" in output


def test_a_pyproject_naming_tool_wsconf_that_cannot_be_parsed_stops_the_run(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "port"\nversion = \n\n[tool.wsconf]\nadapter = "cmd:x"\n')
    code, output = wsconf("run", cwd=tmp_path)
    assert code == 2, output
    assert f"wsconf: bad config: {tmp_path / 'pyproject.toml'}:3: <toml>: not valid TOML" in output


def test_a_pyproject_that_does_not_name_tool_wsconf_is_not_ours_to_refuse(tmp_path):
    from wsconf.session.config import find_config
    (tmp_path / "pyproject.toml").write_text('[project]\nname = \n')
    assert find_config(tmp_path) is None


@pytest.mark.parametrize("content, line, said", [
    ('{"run": {}}\n{"id": "a", "outcome": "passed"\n', 2, "not a JSON line"),
    ('garbage\n', 1, "not a JSON line"),
    ('[1, 2]\n', 1, "a results line must be a JSON object"),
    ('{"id": 5}\n', 1, "a case record needs a string `id` and `outcome`"),
])
def test_report_compare_and_findings_name_the_line_of_a_broken_results_file(tmp_path, content, line, said):
    broken = tmp_path / "r.jsonl"
    broken.write_text(content)
    for command in (["report", f"x={broken}"], ["compare", str(broken), str(broken)], ["findings", str(broken)]):
        code, output = wsconf(*command)
        assert code == 2, output
        assert output.startswith(f"wsconf {command[0]}: {broken}:{line}: {said}"), output


def test_a_results_file_without_its_end_line_is_read_only_when_asked(tmp_path):
    records = [{"id": "read_file.t.one", "tool": "read_file", "outcome": "passed", "message": "", "steps": []}]
    whole = results_file(tmp_path / "r.jsonl", records, {"implementation": "x", "version": "1"})
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(whole.read_text().splitlines(True)[:-1]))
    code, output = wsconf("report", f"x={cut}")
    assert code == 2
    assert f"{cut}: no end line: the run did not finish (or the file was cut); --allow-incomplete reads it anyway" in output
    code, output = wsconf("report", f"x={cut}", "--allow-incomplete")
    assert code == 0 and "| x | 1 | 1 | 0 |" in output


def test_a_run_keeps_no_output_folder_and_caps_what_it_keeps(tmp_path, spec):
    """Without --results nothing is kept for a huge result; with it, at most --wsconf-keep-outputs."""
    from wsconf.isolation import sizes
    sizes.set_output_dir(None)
    assert sizes.output_dir() is None  # no temporary folder is made for it
    step = sizes.kept_step({"id": "s", "actual": "x" * (sizes.KEPT + 10)}, "case.s")
    assert step["actual_not_kept"] == ("not kept: the run has no results file (--wsconf-results keeps whole results "
                                       "beside it)")
    sizes.set_output_dir(tmp_path / "outputs", cap=sizes.KEPT * 3)
    try:
        first = sizes.kept_step({"id": "s", "actual": "x" * (sizes.KEPT * 2)}, "a.s")
        second = sizes.kept_step({"id": "s", "actual": "y" * (sizes.KEPT * 2)}, "b.s")
    finally:
        sizes.set_output_dir(None)
    assert Path(first["actual_file"]).stat().st_size == first["actual_size"]
    assert "actual_file" not in second and second["actual_not_kept"].startswith(
        f"not kept: the run kept {first['actual_size']:,} bytes of whole results already, its cap")
    assert sorted(p.name for p in (tmp_path / "outputs").iterdir()) == ["a.s.json"]
