"""A smoke of tools/mutation (the mutation run itself is not part of the tests): one small module,
two of its lines and a one-case spec, so that some mutants are killed and some survive, and the
report says which, with the verdicts it was given."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import yaml

from conftest import REPO

CASE = {"tool": "mkdir", "cases": [{
    "id": "mkdir.smoke.new_dir", "title": "mkdir creates a top-level directory",
    "claims": ["tools.mkdir.output.created"], "needs": ["filesystem", "empty_dirs"],
    "steps": [{"id": "mkdir", "tool": "mastra_workspace_mkdir", "args": {"path": "build"},
               "expect": {"text": "Created directory build"}, "after": {"dirs": ["build"]}}]}]}


def test_one_mutant_killed_one_survives(mini_spec, tmp_path):
    claims = yaml.safe_load((mini_spec / "claims.yaml").read_text())["claims"]   # only the claim used: fast to load
    (mini_spec / "claims.yaml").write_text(yaml.safe_dump(
        {"claims": [c for c in claims if c["id"] == "tools.mkdir.output.created"]}))
    (mini_spec / "cases" / "mkdir").mkdir()
    (mini_spec / "cases" / "mkdir" / "smoke.yaml").write_text(yaml.safe_dump(CASE, sort_keys=False))
    source = (REPO / "reference" / "wsref" / "tools" / "mkdir.py").read_text().splitlines()
    call = next(i for i, t in enumerate(source, 1) if t.strip().startswith("fs.mkdir(path, recursive="))
    ret = next(i for i, t in enumerate(source, 1) if t.strip() == 'return f"Created directory {path}"')
    results, report, verdicts = tmp_path / "results", tmp_path / "MUTATION.md", tmp_path / "verdicts.yaml"
    survivors = tmp_path / "SURVIVORS.md"
    verdicts.write_text("verdicts:\n")
    cmd = [sys.executable, "-m", "tools.mutation", "--module", "wsref/tools/mkdir.py", "--lines", f"{call},{ret}",
           "--spec", str(mini_spec), "--results-dir", str(results), "--report", str(report), "--survivors", str(survivors),
           "--record", str(tmp_path / "recorded.json"),
           "--verdicts", str(verdicts)] + ([] if shutil.which("bwrap") else ["--no-sandbox"])
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = json.loads((results / "results" / "wsref__tools__mkdir.py.json").read_text())["mutants"]
    status = {(r["line"], r["description"]): r["status"] for r in rows}
    get, mkdir = "`args.get('recursive', True)`", "`fs.mkdir(path, recursive=args.get('recursive', ...`"
    assert status == {
        (call, "remove `fs.mkdir(path, recursive=args.get('recursive', True))`"): "killed",   # the dir is missing
        (call, f"{mkdir}: argument 1 `path` -> `None`"): "killed",
        (call, f"{mkdir}: drop argument 1 `path`"): "killed",
        # whether it is recursive or not, build needs no parent: every change to the flag survives
        (call, "`'recursive'` -> `'XXrecursiveXX'`"): "survived",   # the default of .get is True as well
        (call, "`'recursive'` -> `'RECURSIVE'`"): "survived",
        (call, "`True` -> `False`"): "survived",
        (call, f"{get}: argument 1 `'recursive'` -> `None`"): "survived",
        (call, f"{get}: argument 2 `True` -> `None`"): "survived",
        (call, f"{get}: drop argument 1 `'recursive'`"): "survived",
        (call, f"{get}: drop argument 2 `True`"): "survived",
        (call, f"{mkdir}: argument 2 `args.get('recursi...` -> `None`"): "survived",
        (call, f"{mkdir}: drop argument 2 `recursive=args.ge...`"): "survived",
        (ret, "`return f'Created directory {path}'` -> `return None`"): "killed",
        (ret, "`'Created directory '` -> `'XXCreated directory XX'`"): "killed",
        (ret, "`'Created directory '` -> `'CREATED DIRECTORY '`"): "killed",
        (ret, "`'Created directory '` -> `'created directory '`"): "killed",
    }
    assert {r["by"] for r in rows if r["status"] == "killed"} == {"mkdir.smoke.new_dir"}
    text = report.read_text()
    assert "| `wsref/tools/mkdir.py` | tools | 16 | 7 | 0 | 9 | 0 | 0 | 0 | 0.438 |" not in text  # partial: not counted
    assert "- `wsref/tools/mkdir.py` (tools): partial: only lines" in text
    # judged: one survivor equivalent, the other left open; rerun keeps the kills and reruns the rest
    true_false = next(r["id"] for r in rows if r["description"] == "`True` -> `False`")
    verdicts.write_text(yaml.safe_dump({"verdicts": {true_false: {
        "verdict": "equivalent", "reason": "validation fills recursive's default"}}}))
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "keeping 7 kills of the earlier run" in proc.stdout
    assert "8 survived, 1 equivalent" in proc.stdout, proc.stdout
    # the matrix writing the case's `versions` changes no kill; an edit of the case itself does
    case_file = mini_spec / "cases" / "mkdir" / "smoke.yaml"
    edited = yaml.safe_load(case_file.read_text())
    edited["cases"][0]["versions"] = ">=1.11.0"
    case_file.write_text(yaml.safe_dump(edited, sort_keys=False))
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert "keeping 7 kills of the earlier run (their cases are unchanged); 0 cases are new or changed" in proc.stdout, proc.stdout
    edited["cases"][0]["title"] = "mkdir makes a top-level directory"
    case_file.write_text(yaml.safe_dump(edited, sort_keys=False))
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert "keeping 0 kills of the earlier run (their cases are unchanged); 1 cases are new or changed" in proc.stdout, proc.stdout
    assert "7 killed" in proc.stdout and "8 survived, 1 equivalent" in proc.stdout, proc.stdout


def test_a_factory_mutant_reaches_the_closures_it_made():
    """grep's TOOL = create_grep_tool() at import: the closure the factory already made must run the
    mutant too, not only the closures later calls make."""
    from tools.mutation import engine
    source = "def make():\n    def inner():\n        return 1\n    return inner\n"
    namespace: dict = {}
    exec(compile(source, "<m>", "exec"), namespace)
    made = namespace["make"]()
    functions = {("make", 1): [namespace["make"]], ("inner", 2): [made]}
    mutated = engine._find_code(compile(source.replace("return 1", "return 2"), "<m>", "exec"), "make", 1)
    swaps = engine._nested_swaps(namespace["make"].__code__, mutated, functions, ("make", 1))
    assert [fns for fns, _ in swaps] == [[made]]
    for fns, code in swaps:
        for fn in fns:
            fn.__code__ = code
    assert made() == 2


def test_import_time_mutants_of_a_module_imported_by_a_call_skip_the_tool_listings():
    # skills/publish.py is imported when a published skill source is built: a case that only lists the
    # tools never sees its module-level table, so a mutant of that table need not run every listing case
    sys.path.insert(0, str(REPO))
    from tools.mutation import engine
    assert engine.loaded_with_the_adapter("wsref/skills/publish.py") is False
    assert engine.loaded_with_the_adapter("wsref/workspace.py") is True


def test_the_mutants_run_in_a_zone_that_is_not_utc(mini_spec, tmp_path):
    """A time taken from the local clock instead of UTC is killed even where the machine's zone is UTC."""
    spec_cases = yaml.safe_load((REPO / "spec" / "cases" / "workspace" / "lifecycle.yaml").read_text())
    times = next(c for c in spec_cases["cases"] if c["id"] == "workspace.lifecycle.times")
    (mini_spec / "cases" / "workspace").mkdir()
    (mini_spec / "cases" / "workspace" / "times.yaml").write_text(
        yaml.safe_dump({"tool": "workspace", "cases": [times]}, sort_keys=False))
    source = (REPO / "reference" / "wsref" / "workspace.py").read_text().splitlines()
    line = next(i for i, t in enumerate(source, 1) if "fromtimestamp(ms / 1000, tz=timezone.utc)" in t)
    results, verdicts = tmp_path / "results", tmp_path / "verdicts.yaml"
    verdicts.write_text("verdicts:\n")
    cmd = [sys.executable, "-m", "tools.mutation", "--module", "wsref/workspace.py", "--lines", str(line),
           "--spec", str(mini_spec), "--results-dir", str(results), "--report", str(tmp_path / "MUTATION.md"),
           "--survivors", str(tmp_path / "SURVIVORS.md"), "--record", str(tmp_path / "recorded.json"),
           "--verdicts", str(verdicts)] + ([] if shutil.which("bwrap") else ["--no-sandbox"])
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120, env={**os.environ, "TZ": "UTC"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = json.loads((results / "results" / "wsref__workspace.py.json").read_text())["mutants"]
    status = {r["description"]: r["status"] for r in rows}
    call = "`datetime.fromtimestamp(ms / 1000, tz=timezone.utc)`"
    assert status[f"{call}: drop argument 2 `tz=timezone.utc`"] == "killed", status
    assert status[f"{call}: argument 2 `timezone.utc` -> `None`"] == "killed", status
