"""The suite across releases: version ranges, the runner's not-applicable outcome, the ranges taken
from a matrix, the changelog, and compare on saved results (the report site: test_site.py)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import results_file
from wsconf.cli import main
from wsconf.judge.runner import NOT_APPLICABLE, PASSED, run_case
from wsconf.releases.changelog import describe
from wsconf.releases.changelog import render as render_changelog
from wsconf.releases.history import load_digests, load_matrix
from wsconf.releases.ranges import case_ranges, write_versions
from wsconf.reports.compare import differences
from wsconf.results.records import normalise
from wsconf.spec import load_spec
from wsconf.spec.versions import RangeError, from_releases, parse, satisfies

RELEASES = ["1.11.0", "1.12.0", "1.13.2", "1.40.0", "1.70.0", "1.71.0"]


def test_ranges_parse_and_match():
    assert satisfies("1.65.0", ">=1.11.0 <1.66.0")
    assert not satisfies("1.66.0", ">=1.11.0 <1.66.0")
    assert satisfies("1.71.0", "<1.13.2 || >=1.70.0") and not satisfies("1.40.0", "<1.13.2 || >=1.70.0")
    assert satisfies("1.71.0", "1.71.0") and satisfies("1.71.0", "=1.71.0")
    for bad in ("", ">=1.2", "~1.2.3", ">=1.2.3 ||", "latest"):
        with pytest.raises(RangeError):
            parse(bad)


def test_a_range_from_the_releases_that_behave_as_pinned_came_and_went():
    assert from_releases(RELEASES, RELEASES) is None                        # every release: no range
    assert from_releases(["1.70.0", "1.71.0"], RELEASES) == ">=1.70.0"
    assert from_releases(["1.11.0", "1.12.0", "1.71.0"], RELEASES) == "<1.13.2 || >=1.71.0"
    assert from_releases(["1.12.0", "1.40.0", "1.70.0", "1.71.0"], RELEASES) == ">=1.12.0 <1.13.2 || >=1.40.0"
    # a release not judged next to a change stays outside: 1.12.0 matched, 1.13.0 was not run
    assert from_releases(["1.11.0", "1.12.0", "1.71.0"], RELEASES, RELEASES + ["1.13.0"]) == "<1.13.0 || >=1.71.0"
    assert from_releases(["1.12.0", "1.71.0"], RELEASES, ["1.10.0"] + RELEASES) == ">=1.12.0 <1.13.2 || >=1.71.0"
    for spec_range in (">=1.70.0", "<1.13.2 || >=1.71.0"):
        assert [v for v in RELEASES if satisfies(v, spec_range)] == sorted(
            {"<1.13.2 || >=1.71.0": ["1.11.0", "1.12.0", "1.71.0"], ">=1.70.0": ["1.70.0", "1.71.0"]}[spec_range])


class _Adapter:
    """Enough of an adapter for the runner's version check."""

    def __init__(self, name, version, dependencies=None):
        self.name, self.version, self.dependencies = name, version, dependencies or {}
        self.capabilities = frozenset(["filesystem"])
        self.tools = None


def _case(versions):
    import dataclasses
    case = next(c for c in load_spec().cases if c.needs == ["filesystem"] and not c.versions)
    return dataclasses.replace(case, versions=versions)


def test_a_case_outside_its_range_is_not_applicable_never_run():
    case = _case(">=1.70.0")
    result = run_case(case, _Adapter("@mastra/core", "1.65.0"))
    assert result.outcome == NOT_APPLICABLE and result.ok
    assert result.message == "not applicable to @mastra/core 1.65.0 (the case holds for >=1.70.0)"
    # a provider on an older core: the core it runs on decides
    assert run_case(case, _Adapter("@mastra/s3", "0.6.1", {"@mastra/core": "1.65.0"})).outcome == NOT_APPLICABLE


def test_a_port_implements_the_pinned_release_so_every_case_applies():
    from wsconf.adapters.reference import ReferenceAdapter
    case = _case(">=1.70.0")
    adapter = ReferenceAdapter()
    try:
        assert run_case(case, adapter).outcome == PASSED
    finally:
        adapter.close()


def _record(case_id, outcome, text, version):
    return {"id": case_id, "tool": "read_file", "tools": ["read_file"], "claims": [], "implementation": "@mastra/core",
            "version": version, "outcome": outcome, "message": "" if outcome == "passed" else "the text differs",
            "duration": 0.1, "steps": [{"id": "read", "call": "read (mastra_workspace_read_file)", "args": {},
                                        "expected": {"text": "new"}, "actual": {"kind": "text", "value": text, "model": None}}]}


def _matrix(tmp_path, cases, outcomes):
    """outcomes: version -> {case id: (outcome, text)}."""
    folder = tmp_path / "matrix"
    for version, by_case in outcomes.items():
        (folder / version).mkdir(parents=True)
        run = {"implementation": "@mastra/core", "version": version, "dependencies": {"tokenx": "1.3.0"}}
        results_file(folder / version / "results.jsonl",
                     [_record(cid, *by_case.get(cid, ("passed", "new")), version) for cid in cases], run)
    return folder


def _small_spec(tmp_path):
    """A copy of the spec with one case file, so loading it (twice) stays quick."""
    full = load_spec()
    root = tmp_path / "spec"
    root.mkdir()
    for name in ("claims.yaml", "capabilities.yaml", "schema"):
        src = full.root / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    by_file = {}
    for c in full.cases:
        by_file.setdefault(c.file, []).append(c)
    # A file whose first three cases have no notes (the tests add some), copied without its `versions`
    # lines (the tests write their own ranges).
    rel = next(f for f, cases in by_file.items() if len(cases) >= 3 and all(c.notes is None for c in cases[:3]))
    target = root.parent / rel
    target.parent.mkdir(parents=True)
    text = (full.root.parent / rel).read_text(encoding="utf-8")
    target.write_text("".join(l for l in text.splitlines(True) if not l.lstrip().startswith("versions:")), encoding="utf-8")
    return load_spec(root)


def test_ranges_are_written_one_line_per_case_and_the_changelog_groups_by_cause(tmp_path):
    spec = _small_spec(tmp_path)
    spec_root = spec.root
    a, b, c = [x.id for x in spec.cases if not x.versions][:3]
    folder = _matrix(tmp_path, [a, b, c], {
        "1.11.0": {a: ("failed", "old"), b: ("failed", "old")},
        "1.40.0": {c: ("failed", "gone")},
        "1.71.0": {}})
    matrix = load_matrix(folder)
    ranges = case_ranges(spec, matrix)
    assert ranges[a] == ranges[b] == ">=1.40.0" and ranges[c] == "<1.40.0 || >=1.71.0"
    before = {p: p.read_text() for p in spec_root.rglob("*.yaml")}
    changed = write_versions(spec, ranges)
    assert changed
    after = load_spec(spec_root)
    assert not after.errors
    assert {x.id: x.versions for x in after.cases if x.id in (a, b, c)} == {a: ">=1.40.0", b: ">=1.40.0",
                                                                            c: "<1.40.0 || >=1.71.0"}
    added = sum(len(p.read_text().splitlines()) - len(text.splitlines()) for p, text in before.items())
    assert added == 3  # one line per case
    text = render_changelog(load_digests(folder), after, ["1.12.0"])
    assert text == render_changelog(load_digests(folder), after, ["1.12.0"])  # the same results, the same bytes
    assert "## 1.40.0" in text and "## 1.71.0" in text
    changed = [line for line in text.splitlines() if line.startswith("- ")]
    # a and b: one behaviour change, one line; c went and came back: a line at each release
    assert len(changed) == 3 and sum("`old` became `new`; now as pinned. [2 cases](report/site/release/1.40.0.html#change-" in line
                                     for line in changed) == 1
    assert "Releases not run (1): 1.12.0" in text
    out = tmp_path / "BC.md"
    assert main(["--spec", str(spec_root), "changelog", "--matrix", str(folder), "-o", str(out)]) == 0
    assert out.read_text() == render_changelog(load_digests(folder), after, [])


def test_the_changelog_is_one_line_per_change_and_never_counts_the_clock(tmp_path):
    """Epoch milliseconds, durations and pids that differ between two releases are no behaviour change;
    an output that differs is one, read as the tool, the claim, the old and the new."""
    spec = load_spec()
    case = next(c for c in spec.cases if c.steps and "tool" in c.steps[0] and not c.versions and c.claims)
    step = case.steps[0]
    expected = {"value": {"timestamp": "{{int}}", "output": "done"}}

    def record(version, outcome, value):
        return {"id": case.id, "tool": case.tool, "tools": list(case.families), "claims": case.claims,
                "implementation": "@mastra/core", "version": version, "outcome": outcome,
                "message": "" if outcome == "passed" else f"step {step['id']!r}: the value differs", "duration": 0.1,
                "steps": [{"id": step["id"], "call": f"{step['id']} ({step['tool']})", "args": {}, "expected": expected,
                           "actual": {"kind": "value", "value": value, "model": None}}]}
    outputs = {"1.11.0": ("failed", {"timestamp": 1796165640224, "executionTimeMs": 12, "pid": 4242, "output": "partly"}),
               "1.12.0": ("failed", {"timestamp": 1796166146485, "executionTimeMs": 31, "pid": 4343, "output": "partly"}),
               "1.13.2": ("passed", {"timestamp": 1796166150000, "executionTimeMs": 7, "pid": 99, "output": "done"})}
    for version, (outcome, value) in outputs.items():
        (tmp_path / version).mkdir()
        (tmp_path / version / "results.jsonl").write_text(
            json.dumps({"run": {"implementation": "@mastra/core", "version": version}}) + "\n"
            + json.dumps(record(version, outcome, value)) + "\n")
    text = render_changelog(load_digests(tmp_path), spec, [])
    tool = step["tool"].removeprefix("mastra_workspace_")
    claim = max(case.claims, key=lambda cid: sum(tool in c.families for c in spec.cases if cid in c.claims))
    assert [line for line in text.splitlines() if line.startswith("- ")] == [
        f"- **{tool}** `{claim}`: `value.output`: `partly` became `done`; "
        f"now as pinned. [1 case](report/site/release/1.13.2.html#change-1)"]
    assert "## 1.13.2" in text and "## 1.12.0" not in text and "1796" not in text


def test_a_changelog_line_shows_control_characters_as_their_escapes():
    """A colour's ESC (or a NUL, a DEL) would be unseen or garbled in Markdown: the line names it."""
    old = [{"step": "run", "actual": {"text": "\x1b[31mred\x1b[0m plain\x00\x7f"}}]
    new = [{"step": "run", "actual": {"text": "stdout:"}}]
    step, words = describe(old, new)
    assert (step, words) == ("run", "`\\x1b[31mred\\x1b[0m plain\\x00\\x7f` became `stdout:`")


def test_compare_normalises_counters_and_groups_by_field(tmp_path, capsys):
    assert normalise({"v": "call-1 /tmp/wsconf-abc/root/x PID: 42 2026-01-02T03:04:05.678Z"}) == \
        {"v": "call-{{n}} {{root}}/x PID: {{pid}} {{iso_time}}"}
    # A case's folders inside the run folder, in whatever TMPDIR is; a bare run folder is the base.
    assert normalise("mkdir /tmp/wsconf-run-1/wsconf-2/root/a; /var/t/wsconf-run-3/wsconf-4/outside") == \
        "mkdir {{root}}/a; {{outside}}"
    assert normalise("left in /tmp/wsconf-run-5/wsconf-6/rootless") == "left in {{base}}/rootless"
    ra = {"outcome": "failed", "steps": [{"id": "s", "actual": {"kind": "text", "value": "a", "model": None}}]}
    rb = {"outcome": "passed", "steps": [{"id": "s", "actual": {"kind": "text", "value": "b", "model": None}}]}
    assert differences(ra, rb) == [("outcome", "", "failed", "passed"), ("value", "s", "a", "b")]
    spec = load_spec()
    ids = [x.id for x in spec.cases][:2]
    folder = _matrix(tmp_path, ids, {"1.65.0": {ids[0]: ("failed", "old")}, "1.71.0": {}})
    assert main(["compare", str(folder / "1.65.0" / "results.jsonl"), str(folder / "1.71.0" / "results.jsonl")]) == 1
    out = capsys.readouterr().out
    assert out.startswith("a: @mastra/core@1.65.0 (") and "\nb: @mastra/core@1.71.0 (" in out
    assert "== outcome: 1 case(s)" in out and "== value: 1 case(s)" in out
    assert "expected" not in out and "actual" not in out
    assert out.rstrip().endswith("1 of 2 cases compared differ between a (@mastra/core@1.65.0) and b (@mastra/core@1.71.0)")


def test_the_release_pins_prefer_what_was_shipped(monkeypatch):
    from wsconf.adapters import release_install as releases
    answers = {"mastra-core-time": {"1.65.0": "2026-09-09T09:37:41.027Z"},
               "mastra-core@1.65.0": {"tokenx": "^1.3.0", "picomatch": "^4.0.3"},
               "time-picomatch": {"4.0.3": "2026-01-01T00:00:00Z", "4.0.7": "2026-09-01T00:00:00Z",
                                  "4.0.9": "2026-10-01T00:00:00Z", "created": "2020-01-01T00:00:00Z"}}
    monkeypatch.setattr(releases, "_cached", lambda name, args: answers[name])
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the range is resolved with npm's semver")
    pins = releases.pins("1.65.0")
    assert pins["tokenx"]["version"] == "1.3.0"          # shipped, although ^1.3.0 resolves higher today
    assert pins["picomatch"]["version"] == "4.0.7"       # the newest of the range on the release's date
    package = releases._package_json(Path(releases.data_path("mastra-bridge")), "1.65.0", pins)
    assert package["dependencies"]["@mastra/core"] == "1.65.0" and "@mastra/s3" not in package["dependencies"]
    assert package["overrides"] == {"picomatch": "4.0.7", "tokenx": "1.3.0"}


# -- the matrix is incremental per case ---------------------------------------------------------

_FAKE_WSCONF = r'''#!PYTHON
"""Stands in for `wsconf run` in the matrix: writes a results file for the cases asked (every case
of the spec, or those --ids lists), each passed with the text in $FAKE_TEXT, and logs its argv."""
import json, os, sys
sys.path[:0] = PATHS
from wsconf.spec import load_spec
argv = sys.argv[1:]
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(json.dumps(argv) + "\n")
spec = load_spec(argv[argv.index("--spec") + 1])
ids = [c.id for c in spec.cases]
if "--ids" in argv:
    ids = [l.strip() for l in open(argv[argv.index("--ids") + 1]) if l.strip()]
version = argv[argv.index("--adapter") + 1].split("@")[1]
with open(argv[argv.index("--results") + 1], "w") as out:
    out.write(json.dumps({"run": {"implementation": "@mastra/core", "version": version}}) + "\n")
    for i in ids:
        out.write(json.dumps({"id": i, "outcome": os.environ.get("FAKE_OUTCOME", "passed"), "steps": [],
                              "text": os.environ["FAKE_TEXT"], "half_an_emoji": "\ud83d"}) + "\n")
sys.exit(int(os.environ.get("FAKE_RC", "0")))
'''


def _fake_matrix(tmp_path, monkeypatch):
    import sys as _sys

    from wsconf.releases import matrix as m
    script = tmp_path / "wsconf"
    script.write_text(_FAKE_WSCONF.replace("#!PYTHON", "#!" + _sys.executable)
                      .replace("PATHS", repr([p for p in _sys.path if p])))
    script.chmod(0o755)
    fingerprint = {"value": "f1"}
    monkeypatch.setattr(m, "_install", lambda version, folder: (folder / version).mkdir(parents=True, exist_ok=True) or {
        "install": "ok", "install_seconds": 0.0, "fingerprint": fingerprint["value"]})
    monkeypatch.setattr(m, "bridge_hash", lambda: "b1")
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "calls.log"))
    monkeypatch.setenv("FAKE_TEXT", "first")

    def run(spec, **kw):
        (tmp_path / "calls.log").write_text("")
        m.run_matrix(tmp_path / "matrix", ["1.11.0", "1.71.0"], workers="0", wsconf=str(script), log=lambda _: None,
                     spec=spec, **kw)
        calls = [json.loads(l) for l in (tmp_path / "calls.log").read_text().splitlines()]
        asked = {}
        for argv in calls:
            version = argv[argv.index("--adapter") + 1].split("@")[1]
            asked[version] = ([l.strip() for l in open(argv[argv.index("--ids") + 1])] if "--ids" in argv else "all")
        return asked
    return m, run, fingerprint


def _add_notes(spec, case):
    """Give `case` (which has no notes) a `notes:` line right after its id line."""
    import re
    assert case.notes is None
    path = spec.root.parent / case.file
    text, n = re.subn(rf"^(\s*)- id: ['\"]?{re.escape(case.id)}['\"]?\n", lambda m: f"{m.group(0)}{m.group(1)}  notes: edited\n",
                      path.read_text(), count=1, flags=re.M)
    assert n == 1
    path.write_text(text)


def _texts(folder, version):
    return {i: r["text"] for i, r in load_matrix(folder)[version].records.items()}


def test_a_case_hash_sees_the_content_but_not_the_versions(tmp_path):
    from wsconf.releases.matrix import case_hash
    spec = _small_spec(tmp_path)
    a, b = spec.cases[:2]
    assert case_hash(a) != case_hash(b)
    again = load_spec(spec.root).cases[0]
    assert case_hash(again) == case_hash(a)
    write_versions(spec, {a.id: ">=1.40.0"})
    ranged = next(c for c in load_spec(spec.root).cases if c.id == a.id)
    assert ranged.versions == ">=1.40.0" and case_hash(ranged) == case_hash(a)
    _add_notes(spec, a)
    edited = next(c for c in load_spec(spec.root).cases if c.id == a.id)
    assert edited.notes == "edited" and case_hash(edited) != case_hash(a)


def test_the_matrix_reruns_only_the_stale_cases_and_merges_them(tmp_path, monkeypatch):
    m, run, fingerprint = _fake_matrix(tmp_path, monkeypatch)
    spec = _small_spec(tmp_path)
    folder = tmp_path / "matrix"
    ids = [c.id for c in spec.cases]
    assert len(ids) >= 3
    assert run(spec) == {"1.11.0": "all", "1.71.0": "all"}  # nothing run yet: every case
    keys = json.loads((folder / "1.11.0" / "keys.json").read_text())
    assert keys["fingerprint"] == "f1" and set(keys["cases"]) == set(ids)
    assert keys["cases"][ids[0]] == {"case": m.case_hash(spec.cases[0]), "bridge": "b1"}
    assert run(spec) == {}  # up to date: nothing run, nothing rewritten
    assert _texts(folder, "1.71.0") == dict.fromkeys(ids, "first")

    # A case edited, one removed, one added (a renamed id): only the edited and the new one run.
    _add_notes(spec, spec.cases[0])
    path = spec.root.parent / spec.cases[1].file
    assert path.read_text().count(f"id: {ids[1]}\n") == 1
    path.write_text(path.read_text().replace(f"id: {ids[1]}\n", f"id: {ids[1]}_renamed\n"))
    edited = load_spec(spec.root)
    assert not edited.errors
    monkeypatch.setenv("FAKE_TEXT", "second")
    asked = run(edited)
    assert asked == {"1.11.0": [ids[0], ids[1] + "_renamed"], "1.71.0": [ids[0], ids[1] + "_renamed"]}
    now = [c.id for c in edited.cases]
    expected = {i: ("second" if i in (ids[0], ids[1] + "_renamed") else "first") for i in now}
    assert _texts(folder, "1.11.0") == _texts(folder, "1.71.0") == expected  # the removed case dropped
    header = load_matrix(folder)["1.11.0"].run
    assert header["selected"] == len(now) and header["merged"] == {"run": 2, "kept": len(now) - 2}
    assert set(json.loads((folder / "1.11.0" / "keys.json").read_text())["cases"]) == set(now)
    assert not (folder / "1.11.0" / "results.part.jsonl").exists()

    # The bridge changed: not stale by default, stale with rerun_bridge.
    monkeypatch.setattr(m, "bridge_hash", lambda: "b2")
    assert run(edited) == {}
    assert run(edited, rerun_bridge=True) == {"1.11.0": now, "1.71.0": now}
    assert run(edited, rerun_bridge=True) == {}

    # A reinstall with other pins (another fingerprint) makes every case stale on that release.
    fingerprint["value"] = "f2"
    status = json.loads((folder / "1.11.0" / "status.json").read_text())
    (folder / "1.11.0" / "status.json").write_text(json.dumps({**status, "fingerprint": "f2"}))
    assert run(edited) == {"1.11.0": "all"}
    assert run(edited, full=True) == {"1.11.0": "all", "1.71.0": "all"}


def test_a_release_whose_run_had_no_verdict_runs_again_in_full(tmp_path, monkeypatch):
    m, run, _ = _fake_matrix(tmp_path, monkeypatch)
    spec = _small_spec(tmp_path)
    folder = tmp_path / "matrix"
    run(spec)
    status = json.loads((folder / "1.71.0" / "status.json").read_text())
    (folder / "1.71.0" / "status.json").write_text(json.dumps({**status, "rc": 3}))  # could not start
    assert run(spec) == {"1.71.0": "all"}
    assert json.loads((folder / "1.71.0" / "status.json").read_text())["rc"] == 0

    # A rerun of stale cases that cannot start (exit 3) merges nothing: the earlier verdict and
    # results stand, the cases stay stale, the records it wrote are put aside.
    _add_notes(spec, spec.cases[0])
    edited = load_spec(spec.root)
    before = (folder / "1.71.0" / "results.jsonl").read_text()
    monkeypatch.setenv("FAKE_RC", "3")
    monkeypatch.setenv("FAKE_OUTCOME", "error")
    assert run(edited) == {"1.11.0": [spec.cases[0].id], "1.71.0": [spec.cases[0].id]}
    assert (folder / "1.71.0" / "results.jsonl").read_text() == before
    status = json.loads((folder / "1.71.0" / "status.json").read_text())
    assert status["rc"] == 0 and status["last_run"]["rc"] == 3
    assert (folder / "1.71.0" / "results.no-verdict.jsonl").is_file()
    monkeypatch.setenv("FAKE_RC", "1")  # a verdict (some cases failed): merged
    assert run(edited) == {"1.11.0": [spec.cases[0].id], "1.71.0": [spec.cases[0].id]}
    assert load_matrix(folder)["1.71.0"].records[spec.cases[0].id]["outcome"] == "error"
    assert run(edited) == {}


def test_a_matrix_limited_to_some_cases_runs_and_judges_only_those(tmp_path, monkeypatch, capsys):
    from wsconf.releases.ranges import check
    m, run, _ = _fake_matrix(tmp_path, monkeypatch)
    spec = _small_spec(tmp_path)
    folder = tmp_path / "matrix"
    ids = [c.id for c in spec.cases]
    first, second = ids[0], ids[1]
    # A new matrix folder (a lost cache): only the listed cases run, on every release.
    assert run(spec, only={second}) == {"1.11.0": [second], "1.71.0": [second]}
    assert set(_texts(folder, "1.71.0")) == {second}
    assert run(spec, only={second}) == {}  # up to date for those cases
    assert run(spec, only={first, second}) == {"1.11.0": [first], "1.71.0": [first]}
    # check judges only the listed cases; the others are "not run" without the limit.
    matrix = load_matrix(folder)
    counts, unexpected = check(spec, matrix, only={first, second})
    assert unexpected == {} and counts["1.71.0"]["passed"] == 2
    counts, unexpected = check(spec, matrix)
    assert unexpected["1.71.0"] == [f"not run {i}" for i in ids[2:]]
    # The command line: a bad line in the ids file is named; a good file limits the check.
    listed = tmp_path / "ids.txt"
    listed.write_text(f"{first}\nno.such.case\n")
    assert main(["--spec", str(spec.root), "matrix", "check", "--matrix", str(folder), "--ids", str(listed)]) == 2
    assert f"{listed}:2: 'no.such.case' is not a case id of {spec.root}" in capsys.readouterr().err
    listed.write_text(f"{first}\n{second}\n")
    assert main(["--spec", str(spec.root), "matrix", "check", "--matrix", str(folder), "--ids", str(listed)]) == 0
    assert main(["--spec", str(spec.root), "matrix", "check", "--matrix", str(folder)]) == 1
    # The rest run when the limit is lifted (their results are missing: stale).
    assert run(spec) == {"1.11.0": ids[2:], "1.71.0": ids[2:]}


def test_run_ids_selects_those_cases_and_names_a_bad_line(tmp_path, capsys):
    spec = _small_spec(tmp_path)
    ids = tmp_path / "ids.txt"
    ids.write_text(f"{spec.cases[0].id}\n\n# a comment\nno.such.case\n")
    assert main(["--spec", str(spec.root), "run", "--adapter", "reference", "--ids", str(ids)]) != 0
    assert f"{ids}:4: 'no.such.case' is not a case id of {spec.root}" in capsys.readouterr().err
    ids.write_text(f"{spec.cases[0].id}\n{spec.cases[1].id}\n")
    results = tmp_path / "r.jsonl"
    assert main(["--spec", str(spec.root), "run", "--adapter", "reference", "--ids", str(ids),
                 "--results", str(results)]) == 0
    from wsconf.results.records import load_results
    assert set(load_results(results).records) == {spec.cases[0].id, spec.cases[1].id}


def test_check_judges_each_release_as_a_plain_run_with_the_ranges_applied(tmp_path, capsys):
    import dataclasses

    from wsconf.releases.ranges import check
    spec = _small_spec(tmp_path)
    a, b, c = [x.id for x in spec.cases if not x.versions][:3]
    spec = dataclasses.replace(spec, cases=[x for x in spec.cases if x.id in (a, b, c)])
    folder = _matrix(tmp_path, [a, b, c], {
        "1.11.0": {a: ("failed", "old")},
        "1.40.0": {c: ("failed", "gone")},
        "1.71.0": {b: ("unsupported", "")}})  # unsupported on the newest: no range from this matrix
    counts, unexpected = check(spec, load_matrix(folder))  # no ranges yet: the old behaviours fail
    assert unexpected == {"1.11.0": [f"failed {a}"], "1.40.0": [f"failed {c}"]}
    write_versions(spec, case_ranges(spec, load_matrix(folder)))
    ranged = load_spec(spec.root)
    ranged = dataclasses.replace(ranged, cases=[x for x in ranged.cases if x.id in (a, b, c)])
    counts, unexpected = check(ranged, load_matrix(folder))
    assert unexpected == {}
    assert {v: {k: n for k, n in row.items() if n} for v, row in counts.items()} == {
        "1.11.0": {"passed": 2, "not_applicable": 1},
        "1.40.0": {"passed": 2, "not_applicable": 1},
        "1.71.0": {"passed": 2, "unsupported": 1}}
    assert len(ranged.cases) == 3
    expectations = tmp_path / "expectations"
    expectations.mkdir()
    (expectations / "mastra-core@1.71.0.yaml").write_text(f"implementation: '@mastra/core'\nfailures:\n  {a}: a reason\n")
    (expectations / "mastra-core.yaml").write_text(f"implementation: '@mastra/core'\nfailures:\n  {c}: a reason\n")
    counts, unexpected = check(ranged, load_matrix(folder), expectations)
    assert counts["1.71.0"]["xpass"] == 1 and f"xpass {a}" in unexpected["1.71.0"]  # the versioned file wins
    assert counts["1.40.0"]["xpass"] == 0 and counts["1.40.0"]["not_applicable"] == 1  # c: outside its range first
    assert counts["1.11.0"]["xpass"] == 1 and f"xpass {c}" in unexpected["1.11.0"]
    from wsconf.results.records import ResultsError, load_results
    results = folder / "1.40.0" / "results.jsonl"
    kept = load_results(results)
    edited = "".join(line for line in results.read_text().splitlines(True) if f'"id": "{b}"' not in line)
    results.write_text(edited)
    with pytest.raises(ResultsError, match="the file was changed after the run"):  # a record taken out by hand
        load_matrix(folder)
    results_file(results, [r for i, r in kept.records.items() if i != b], kept.run)  # a run that did not get to b
    assert check(ranged, load_matrix(folder))[1] == {"1.40.0": [f"not run {b}"]}  # a case without a result


def test_a_release_install_without_a_library_the_bridge_now_declares_is_installed_again(tmp_path):
    from wsconf.adapters import release_install as releases

    def folder(name, deps):
        f = tmp_path / name
        (f / "node_modules" / "@mastra" / "core").mkdir(parents=True)
        (f / "node_modules" / "@mastra" / "core" / "package.json").write_text("{}")
        (f / ".wsconf-pins.json").write_text("{}")
        (f / "package.json").write_text(json.dumps({"dependencies": deps}))
        return f

    source = folder("bridge", {"@mastra/core": "1.71.0", "@mastra/s3": "0.6.1", "zod": "4.6.7", "vscode-jsonrpc": "8.2.1"})
    old = folder("1.40.0", {"@mastra/core": "1.40.0", "zod": "4.6.7"})
    new = folder("1.41.0", {"@mastra/core": "1.41.0", "zod": "4.6.7", "vscode-jsonrpc": "8.2.1"})
    assert releases._installed(old) and not releases._installed(old, source)
    assert releases._installed(new, source)
    (new / ".wsconf-pins.json").unlink()
    assert not releases._installed(new, source)


def test_an_install_that_raises_an_os_error_is_a_failed_install_not_a_dead_installer(monkeypatch, tmp_path):
    # A bridge file removed while the sources were hashed killed both installer threads of a
    # matrix run, which then waited 900 s for installs that never came.
    from wsconf.releases import matrix as m

    def vanished(version):
        raise FileNotFoundError(2, "No such file or directory", "tools/mastra-bridge/tmp.mjs")

    monkeypatch.setattr(m, "release_dir", vanished)
    status = m._install("1.52.1", tmp_path)
    assert status["install"] == "FileNotFoundError: [Errno 2] No such file or directory: 'tools/mastra-bridge/tmp.mjs'"
    assert (tmp_path / "1.52.1" / "install.log").read_text() == status["install"] + "\n"


def test_a_release_of_the_matrix_runs_the_spec_cases_only(tmp_path, monkeypatch):
    """No fresh cases in the matrix: they are new every run, so the same release's results could not
    be merged from shards, resumed or compared with the next release's."""
    import subprocess

    from wsconf.releases import matrix
    seen = []
    monkeypatch.setattr(subprocess, "run", lambda argv, **kw: seen.append(argv) or subprocess.CompletedProcess(argv, 0))
    (tmp_path / "1.71.0").mkdir()
    matrix._run("1.71.0", tmp_path, "2", "wsconf", tmp_path / "spec")
    assert seen == [["wsconf", "--spec", str(tmp_path / "spec"), "run", "--adapter", "mastra@1.71.0", "--all-versions",
                     "--no-expectations", "--fresh", "0", "--results", str(tmp_path / "1.71.0" / "results.part.jsonl"),
                     "-n", "2"]]
