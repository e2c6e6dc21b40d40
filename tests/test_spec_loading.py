"""A broken spec file is reported with file, line and key, and the rest still loads."""
from __future__ import annotations

from wsconf.spec import load_spec

GOOD = '''
  - id: read_file.t.good
    title: a good case
    claims: [tools.inventory.id_prefix]
    steps:
      - id: read
        tool: mastra_workspace_read_file
        args: {path: a.txt}
        expect: {error: "File not found: a.txt"}
'''


def write(spec, name, text):
    path = spec / "cases" / "read_file" / name
    path.write_text(text)
    return path


def messages(spec):
    return [str(e) for e in load_spec(spec).errors]


def test_malformed_yaml_names_file_and_line_and_other_files_load(mini_spec):
    write(mini_spec, "bad.yaml", "tool: read_file\ncases:\n  - id: x\n    title: [unclosed\n")
    write(mini_spec, "good.yaml", "tool: read_file\ncases:" + GOOD)
    spec = load_spec(mini_spec)
    assert [c.id for c in spec.cases] == ["read_file.t.good"]
    (err,) = spec.errors
    assert err.file == "spec/cases/read_file/bad.yaml"
    assert err.line >= 4 and "not valid YAML" in err.message


def test_unknown_key_is_reported_with_its_line_and_path(mini_spec):
    write(mini_spec, "a.yaml", "tool: read_file\ncases:" + GOOD + GOOD.replace("t.good", "t.other").replace(
        "    steps:", "    colour: red\n    steps:"))
    spec = load_spec(mini_spec)
    assert [c.id for c in spec.cases] == ["read_file.t.good"]  # the good case still loads
    (msg,) = [str(e) for e in spec.errors]
    assert msg.startswith("spec/cases/read_file/a.yaml:12: cases[1]: unknown key")
    assert "'colour' was unexpected" in msg


def test_missing_field_and_bad_expectation(mini_spec):
    text = "tool: read_file\ncases:" + GOOD.replace("    title: a good case\n", "")
    write(mini_spec, "a.yaml", text.replace('expect: {error: "File not found: a.txt"}', "expect: {}"))
    msgs = messages(mini_spec)
    assert any(m.startswith("spec/cases/read_file/a.yaml:3: cases[0]: 'title' is a required property") for m in msgs), msgs
    assert any("cases[0].steps[0].expect" in m and ":9:" in m for m in msgs), msgs


def test_unknown_claim_capability_placeholder_and_duplicates(mini_spec):
    case = GOOD.replace("[tools.inventory.id_prefix]", "[tools.no_such.claim]").replace(
        "    steps:", "    needs: [teleport]\n    steps:").replace('"File not found: a.txt"', '"{{rooot}}"')
    write(mini_spec, "a.yaml", "tool: read_file\ncases:" + case)
    write(mini_spec, "b.yaml", "tool: read_file\ncases:" + GOOD + GOOD)
    msgs = messages(mini_spec)
    assert "spec/cases/read_file/a.yaml:5: cases[0].claims[0]: unknown claim id 'tools.no_such.claim'" in msgs
    assert any("a.yaml:6: cases[0].needs[0]: unknown capability 'teleport'" in m for m in msgs), msgs
    assert any("a.yaml:11: cases[0].steps[0].expect.error: unknown placeholder {{rooot}}" in m for m in msgs), msgs
    assert any("b.yaml:12: cases[1].id: duplicate case id 'read_file.t.good'" in m for m in msgs), msgs


def test_the_real_spec_is_clean_and_every_quote_is_on_its_page():
    from wsconf.spec import quote_problems
    from wsconf.spec.resources import pages_dir
    spec = load_spec()
    assert [str(e) for e in spec.errors] == []
    if pages_dir().exists():
        assert quote_problems(spec, pages_dir()) == []


def test_upstream_tests_trace_to_existing_cases():
    """spec/upstream-tests/: every entry is well formed and names only cases that exist."""
    from wsconf.spec import load_spec
    from wsconf.spec.upstream_tests import load_upstream_tests
    spec = load_spec()
    tests, errors = load_upstream_tests(spec.root, {c.id for c in spec.cases})
    assert [str(e) for e in errors] == []
    assert len(tests) > 1000
    kinds = {t.kind for t in tests}
    assert {"cases", "reason"} <= kinds <= {"cases", "gap", "reason"}  # every gap may be closed


def test_an_upstream_test_naming_a_missing_case_is_reported(tmp_path):
    from wsconf.spec.upstream_tests import load_upstream_tests
    (tmp_path / "upstream-tests").mkdir()
    (tmp_path / "upstream-tests" / "x.yaml").write_text(
        "- file: a.test.ts\n  commit: abc\n  tests:\n    - name: 'A > b'\n      cases: [no.such.case]\n"
        "    - name: 'A > c'\n      gap: x\n      reason: y\n")
    tests, errors = load_upstream_tests(tmp_path, set())
    assert [str(e) for e in errors] == [
        f"{tmp_path.name}/upstream-tests/x.yaml:4: [0].tests[0].cases: no case 'no.such.case'",
        f"{tmp_path.name}/upstream-tests/x.yaml:6: [0].tests[1]: needs a name and exactly one of cases, gap, reason"]


def test_libyaml_and_pyyaml_read_every_spec_file_alike():
    """The fast composer (libyaml, falling back to PyYAML where it refuses a file) gives the same
    data, types and key lines as PyYAML's own composer."""
    import yaml
    from wsconf.spec import DEFAULT_SPEC_DIR
    from wsconf.spec.yaml_lines import LineMap, _build, load_with_lines
    files = sorted((DEFAULT_SPEC_DIR / "cases").rglob("*.yaml")) + [DEFAULT_SPEC_DIR / "claims.yaml"]
    refused = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        try:
            yaml.compose(text, Loader=yaml.CSafeLoader)
        except yaml.YAMLError:
            refused += 1
        pure_lines = LineMap()
        pure = _build(yaml.compose(text, Loader=yaml.SafeLoader), (), pure_lines, join_pairs=True)
        data, lines = load_with_lines(text)
        assert repr(data) == repr(pure) and dict(lines) == dict(pure_lines), path
    assert refused >= 1  # the lone-surrogate escapes: the fallback is exercised


def test_cached_spec_is_the_loaded_spec_and_follows_every_change(mini_spec, tmp_path, monkeypatch):
    import pickle

    from wsconf.spec import cache as spec_cache
    from wsconf.spec import loader as spec_mod
    monkeypatch.setenv("WSCONF_CACHE_DIR", str(tmp_path / "cache"))
    write(mini_spec, "a.yaml", "tool: read_file\ncases:" + GOOD)
    fresh = spec_mod._load_from_files(mini_spec.resolve())
    first = load_spec(mini_spec)
    assert pickle.dumps(first.cases) == pickle.dumps(fresh.cases)
    assert load_spec(mini_spec) is first  # once per process
    monkeypatch.setattr(spec_cache, "_memo", {})
    again = load_spec(mini_spec)  # a new process: from the disk copy
    assert again is not first and [c.id for c in again.cases] == ["read_file.t.good"]
    write(mini_spec, "a.yaml", "tool: read_file\ncases:" + GOOD.replace("t.good", "t.changed"))
    assert [c.id for c in load_spec(mini_spec).cases] == ["read_file.t.changed"]
    (mini_spec / "cases" / "read_file" / "a.yaml").unlink()
    assert load_spec(mini_spec).cases == []


def test_a_malformed_string_form_is_reported_with_its_path(mini_spec):
    bad = GOOD.replace('expect: {error: "File not found: a.txt"}', 'expect: {value: {$string: [{repeat: x}]}}')
    write(mini_spec, "a.yaml", "tool: read_file\ncases:" + bad)
    (msg,) = messages(mini_spec)
    assert "a.yaml" in msg and "steps[0].expect.value.$string" in msg and "repeat: <string>" in msg


def test_the_string_form_and_repeated_content_expand_exactly():
    from wsconf.isolation.tree import content_bytes
    from wsconf.judge.verdict import value_matches as _value_matches
    form = {"$string": [{"repeat": "ab", "times": 3}, "end"]}
    assert _value_matches({"out": form}, {"out": "abababend"}, {})
    assert not _value_matches({"out": form}, {"out": "ababend"}, {})
    assert not _value_matches(form, 7, {})
    assert content_bytes({"prefix": "<", "repeat": "x", "times": 2, "suffix": ">"}) == b"<xx>"
    assert content_bytes({"repeat": "x", "times": 2}) == b"xx"


def test_placeholder_names_may_hold_digits_and_unknown_ones_are_refused():
    from wsconf.spec.placeholders import matches, unknown_placeholders
    assert matches("cfs-{{base36_ms}}", "cfs-mx5ppfhb", {})
    assert not matches("cfs-{{base36_ms}}", "cfs-mx5ppfh", {})      # 8 digits, no fewer
    assert not matches("cfs-{{base36_ms}}", "cfs-MX5PPFHB", {})     # lower case, as toString(36)
    assert list(unknown_placeholders({"a": "x {{base37_ms}} y"})) == [(("a",), "{{base37_ms}}")]


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while n:
        n, r = divmod(n, 36)
        out = digits[r] + out
    return out


def test_a_base36_time_must_fall_within_the_case_run():
    import time

    from wsconf.spec.placeholders import RUN_STARTED, matches
    started = time.time_ns() // 1_000_000
    values = {RUN_STARTED: str(started)}
    assert matches("cfs-{{base36_ms}}", f"cfs-{_base36(started)}", values)
    assert not matches("cfs-{{base36_ms}}", f"cfs-{_base36(started - 1)}", values)         # before the case
    assert not matches("cfs-{{base36_ms}}", f"cfs-{_base36(started + 3_600_000)}", values)  # in the future
    assert not matches("cfs-{{base36_ms}}", f"cfs-{_base36(started * 1000001 // 1000000)}", values)


def test_an_epoch_ms_time_must_fall_within_the_case_run():
    import time

    from wsconf.judge.verdict import value_matches as _value_matches
    from wsconf.spec.placeholders import RUN_STARTED, matches
    started = time.time_ns() // 1_000_000
    values = {RUN_STARTED: str(started)}
    assert matches("{{epoch_ms}}", str(started), values)
    assert not matches("{{epoch_ms}}", str(started - 1), values)          # before the case
    assert not matches("{{epoch_ms}}", str(started + 3_600_000), values)  # in the future
    assert not matches("{{epoch_ms}}", str(started * 1001 // 1000), values)
    assert not matches("{{epoch_ms}}", str(started // 1000), values)      # seconds, not milliseconds
    assert _value_matches({"timestamp": "{{epoch_ms}}"}, {"timestamp": started}, values)  # a JSON number
    assert not _value_matches({"timestamp": "{{epoch_ms}}"}, {"timestamp": started - 1}, values)


def test_an_iso_now_time_must_fall_within_the_case_run():
    """The Workspace's createdAt and lastAccessedAt: a clock off by weeks (or a file's old mtime) must not pass."""
    import datetime
    import time

    from wsconf.judge.verdict import value_matches as _value_matches
    from wsconf.spec.placeholders import RUN_STARTED, matches
    started = time.time_ns() // 1_000_000

    def iso(ms):
        moment = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
    values = {RUN_STARTED: str(started)}
    assert matches("{{iso_now}}", iso(started), values)
    assert matches("{{iso_time}}", iso(started - 21 * 86_400_000), values)      # iso_time: the shape alone
    assert not matches("{{iso_now}}", iso(started - 21 * 86_400_000), values)   # three weeks back
    assert not matches("{{iso_now}}", iso(started - 1), values)                 # before the case
    assert not matches("{{iso_now}}", iso(started + 3_600_000), values)         # in the future
    assert not matches("{{iso_now}}", "2026-13-01T00:00:00.000Z", values)       # no such date
    assert _value_matches({"createdAt": {"$date": "{{iso_now}}"}}, {"createdAt": {"$date": iso(started)}}, values)
    assert not _value_matches({"createdAt": {"$date": "{{iso_now}}"}},
                              {"createdAt": {"$date": iso(started - 86_400_000)}}, values)


def test_an_iso_since_previous_step_time_must_not_be_before_the_previous_step():
    """lastAccessedAt after a call: a time left from before the call (the workspace's opening) must not pass."""
    import time

    from wsconf.spec.placeholders import PREVIOUS_STEP_STARTED, RUN_STARTED, matches
    now = time.time_ns() // 1_000_000
    started, previous = now - 5_000, now - 1_000

    def iso(ms):
        return time.strftime("%Y-%m-%dT%H:%M:%S.", time.gmtime(ms // 1000)) + f"{ms % 1000:03d}Z"
    values = {RUN_STARTED: str(started), PREVIOUS_STEP_STARTED: str(previous)}
    assert matches("{{iso_since_previous_step}}", iso(previous), values)
    assert matches("{{iso_now}}", iso(started + 1), values)
    assert not matches("{{iso_since_previous_step}}", iso(started + 1), values)   # before the previous step
    assert not matches("{{iso_since_previous_step}}", iso(now + 3_600_000), values)  # in the future
    # the first step: no previous one, so the case's start is the bound
    assert matches("{{iso_since_previous_step}}", iso(started + 1), {RUN_STARTED: str(started)})


def test_the_runner_gives_each_step_the_start_of_the_one_before():
    from wsconf.adapters.reference import ReferenceAdapter
    from wsconf.judge.runner import run_case
    from wsconf.spec import load_spec
    case = load_spec().cases_by_id["workspace.mutation_lifecycle.last_accessed_moves"]
    assert run_case(case, ReferenceAdapter()).outcome == "passed"
    # a lastAccessedAt that a call did not move fails
    import wsref.workspace as ws
    touch = ws.Workspace.touch
    ws.Workspace.touch = lambda self: None
    try:
        assert run_case(case, ReferenceAdapter()).outcome == "failed"
    finally:
        ws.Workspace.touch = touch


def test_captures_from_the_chunks():
    from wsconf.judge.runner import _captured_parts
    actual = {"value": "x", "chunks": [{"type": "a"}, {"data": {"executionTimeMs": 204}}]}
    assert _captured_parts({"id": "s", "captures": {"int": ["$chunks", 1, "data", "executionTimeMs"]}}, actual) == {"int": "204"}


def test_a_symlink_in_the_setup_needs_the_symlinks_capability(mini_spec):
    case = GOOD.replace("    steps:", "    setup:\n      symlinks: {l.txt: a.txt}\n    steps:")
    write(mini_spec, "a.yaml", "tool: read_file\ncases:" + case)
    msgs = messages(mini_spec)
    assert any("a.yaml:7: cases[0].setup.symlinks: setup.symlinks needs the capability symlinks" in m for m in msgs), msgs
    write(mini_spec, "a.yaml", "tool: read_file\ncases:" + case.replace("    setup:", "    needs: [symlinks]\n    setup:"))
    assert not [m for m in messages(mini_spec) if "symlinks" in m]


def test_escaped_surrogate_pairs_are_one_character_as_in_javascript():
    """A case that writes an emoji as its two UTF-16 escapes gives every implementation the emoji
    (as JSON.parse gives the upstream); a lone surrogate stays a lone surrogate, in values and keys."""
    from wsconf.spec.yaml_lines import load_with_lines
    data, lines = load_with_lines('a: "x\\uD83D\\uDE00y"\n"\\uD83D\\uDE00": "\\uD800z\\uDE00"\n')
    assert data == {"a": "x\U0001F600y", "\U0001F600": "\ud800z\ude00"}
    assert dict(lines) == {(): 1, ("a",): 1, ("\U0001F600",): 2}


def test_the_string_form_in_a_steps_args_reaches_the_implementation_expanded():
    # A case writes a megabyte through a tool without spelling it out: the adapter sees the string.
    from wsconf.adapters.reference import ReferenceAdapter
    from wsconf.judge.runner import PASSED, run_case
    from wsconf.judge.verdict import expand_strings
    from wsconf.spec import load_spec

    assert expand_strings([{"path": "a", "content": {"$string": [{"repeat": "ab", "times": 2}, "!"]}}, 3]) == [
        {"path": "a", "content": "abab!"}, 3]
    case = next(c for c in load_spec().cases if c.id == "filesystem.sizes.write_file_tool")
    result = run_case(case, ReferenceAdapter())
    assert (result.outcome, result.message) == (PASSED, "")
    assert result.steps[-1]["actual"]["value"] == "Wrote 5242883 bytes to 5_mib_and_3.txt"


def test_a_case_needing_only_file_capabilities_uses_only_the_six_ops(mini_spec):
    """A first port answers hello, open, tools, call, close and shutdown (spec/first-port.md); a case it can
    be given (needing only how files behave) must not send it `retool`, `workspace`, `hookLog` ..."""
    case = GOOD.replace("    steps:\n", "    needs: [filesystem, read_only]\n    steps:\n      - id: again\n"
                                       "        retool: true\n        expect: {value: []}\n")
    write(mini_spec, "a.yaml", "tool: read_file\ncases:" + case)
    assert messages(mini_spec) == [
        "spec/cases/read_file/a.yaml:6: cases[0].needs: a case needing only file capabilities uses only the ops hello, "
        "open, tools, call, close, shutdown; its steps use retool: add the capability that brings it "
        "(spec/first-port.md)"]
    write(mini_spec, "a.yaml", "tool: read_file\ncases:" + case.replace("[filesystem, read_only]", "[filesystem, tool_config]"))
    assert messages(mini_spec) == []
    waits = GOOD.replace("    steps:\n", "    steps:\n      - id: settle\n        wait: {until: {call: {workspace: status, "
                                          "expect: {value: ready}}}, timeout_ms: 100}\n")
    write(mini_spec, "a.yaml", "tool: read_file\ncases:" + waits)
    assert [m.split(": ", 2)[2] for m in messages(mini_spec)] == [
        "a case needing only file capabilities uses only the ops hello, open, tools, call, close, shutdown; its steps "
        "use workspace: add the capability that brings it (spec/first-port.md)"]
