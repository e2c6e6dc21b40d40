"""Expected failures: listed failures are xfail, a listed pass or a stale entry fails the run."""
from __future__ import annotations


from conftest import SPEC, run_suite
from wsconf.session import expectations


def one_case_spec(tmp_path, mini_spec, expected_text):
    (mini_spec / "cases" / "read_file" / "a.yaml").write_text(f'''tool: read_file
cases:
  - id: read_file.t.one
    title: one case
    claims: [tools.read.errors.not_found]
    steps:
      - id: read
        tool: mastra_workspace_read_file
        args: {{path: nope.txt}}
        expect: {{error: "{expected_text}"}}
''')
    return mini_spec


def test_listed_failure_is_xfail_and_the_run_passes(tmp_path, mini_spec):
    spec = one_case_spec(tmp_path, mini_spec, "File not found: something else")
    exp = tmp_path / "exp"
    expectations.write("wsref", {"read_file.t.one": "a known difference, for the test"}, exp)
    code, records, out = run_suite(tmp_path, "reference", "--wsconf-expectations", str(exp), spec=spec)
    assert [(r["id"], r["outcome"], r["message"]) for r in records] == [
        ("read_file.t.one", "xfail", "a known difference, for the test")]
    assert code == 0, out


def test_listed_case_that_passes_fails_the_run(tmp_path, mini_spec):
    spec = one_case_spec(tmp_path, mini_spec, "File not found: nope.txt")
    exp = tmp_path / "exp"
    expectations.write("wsref", {"read_file.t.one": "was broken once"}, exp)
    code, records, out = run_suite(tmp_path, "reference", "--wsconf-expectations", str(exp), spec=spec)
    assert [r["outcome"] for r in records] == ["xpass"]
    assert "unexpected pass: read_file.t.one is listed in the expectations file of wsref" in out
    assert code == 1


def test_a_stale_entry_fails_the_run(tmp_path, mini_spec):
    spec = one_case_spec(tmp_path, mini_spec, "File not found: nope.txt")
    exp = tmp_path / "exp"
    expectations.write("wsref", {"read_file.t.gone": "a case that was removed"}, exp)
    code, records, out = run_suite(tmp_path, "reference", "--wsconf-expectations", str(exp), spec=spec)
    assert [r["outcome"] for r in records] == ["passed"]
    assert "stale expectation: read_file.t.gone is listed but no such case exists" in out
    assert code == 1


def test_a_reason_left_as_the_drafts_placeholder_fails_the_run(tmp_path, mini_spec):
    """`wsconf expectations` drafts `REVIEW: <first line>`: a run must not go green on a reason nobody wrote."""
    spec = one_case_spec(tmp_path, mini_spec, "File not found: something else")
    exp = tmp_path / "exp"
    path = expectations.write("wsref", {"read_file.t.one": "REVIEW: step 'read': the error message differs"}, exp)
    code, records, out = run_suite(tmp_path, "reference", "--wsconf-expectations", str(exp), spec=spec)
    assert [r["outcome"] for r in records] == ["xfail"]
    assert (f"unreviewed expectation: read_file.t.one in {path}: its reason is still a draft (\"REVIEW: step 'read': "
            "the error message differs\"); write what the implementation does and why") in out
    assert code == 1


def test_the_committed_expectation_files_name_only_existing_cases():
    from wsconf.spec import load_spec
    known = {c.id for c in load_spec(SPEC).cases}
    for path in sorted(expectations.EXPECTATIONS_DIR.glob("*.yaml")):
        import yaml
        listed = (yaml.safe_load(path.read_text()) or {}).get("failures") or {}
        assert set(listed) <= known, f"{path.name}: {sorted(set(listed) - known)}"
        assert expectations.unreviewed(listed) == [], path.name


# The child counts the tracebacks pytest builds for the cases (Node._repr_failure_py), then runs.
COUNTING = """
import sys, pytest, _pytest.nodes as nodes
built = nodes.Node._repr_failure_py
def counted(self, *args, **kwargs):
    with open(sys.argv[1], "a") as out:
        out.write(self.name + "\\n")
    return built(self, *args, **kwargs)
nodes.Node._repr_failure_py = counted
sys.exit(pytest.main(sys.argv[2:]))
"""


def test_an_expected_failure_builds_no_traceback(tmp_path, mini_spec):
    """An xfail costs what a pass costs: pytest reports it by its reason, so the traceback it would
    build for the exception (about 0.5 s a case) is not built. A real failure keeps its report."""
    import subprocess
    import sys
    spec = one_case_spec(tmp_path, mini_spec, "File not found: something else")
    text = (spec / "cases" / "read_file" / "a.yaml").read_text()
    (spec / "cases" / "read_file" / "b.yaml").write_text(text.replace("read_file.t.one", "read_file.t.two"))
    exp = tmp_path / "exp"
    expectations.write("wsref", {"read_file.t.one": "a known difference, for the test"}, exp)
    built, junit = tmp_path / "built.txt", tmp_path / "j.xml"
    proc = subprocess.run([sys.executable, "-c", COUNTING, str(built), str(spec / "cases"), "-q", "-rxf",
                           "-p", "no:cacheprovider", "--wsconf-expectations", str(exp), "--junitxml", str(junit)],
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "/a.yaml::read_file.t.one - a known difference, for the test" in out, out
    assert "read_file.t.two (spec/cases/read_file/b.yaml:3) checks tools.read.errors.not_found" in out, out
    assert not built.exists()  # neither the xfail nor the failure (its own short report)
    assert 'message="a known difference, for the test"' in junit.read_text()
