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


def test_the_committed_expectation_files_name_only_existing_cases():
    from wsconf.spec import load_spec
    known = {c.id for c in load_spec(SPEC).cases}
    for path in sorted(expectations.EXPECTATIONS_DIR.glob("*.yaml")):
        import yaml
        listed = set((yaml.safe_load(path.read_text()) or {}).get("failures") or {})
        assert listed <= known, f"{path.name}: {sorted(listed - known)}"
