"""Findings: every difference of a case judged (not only the first), its harm decided from what the
harness observed (the answers and the root's state against the upstream's), and the failures of a
run grouped by root cause, worst first (judge/harm.py, judge/root_states.py, session/findings.py)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import results_file

from wsconf.adapters.reference import ReferenceAdapter
from wsconf.isolation.root_state import differences, entry_matches, observe
from wsconf.judge.harm import abstract, edit_shape, output_harm
from wsconf.judge.runner import FAILED, PASSED, UNSUPPORTED, run_case
from wsconf.releases.states import merge_runs
from wsconf.session.findings import as_json, as_markdown, groups
from wsconf.spec import Case, load_spec

FAKES = Path(__file__).parent / "fakes"
sys.path.insert(0, str(FAKES))
from buggy_fs_adapter import BuggyAdapter  # noqa: E402

SPEC = load_spec()


def run(case_id: str, bug: str, monkeypatch):
    monkeypatch.setenv("WSCONF_FAKE_BUG", bug)
    return run_case(SPEC.cases_by_id[case_id], BuggyAdapter())


@pytest.mark.parametrize("case_id, bug, harm, signature", [
    ("write_file.basics.new_file", "write_noop", "false_success",
     "false_success | any call | root: missing file"),
    ("delete.basics.file", "delete_siblings", "data_loss",
     "data_loss | any call | root: lost file"),
    ("read_file.errors.missing_file", "error_wording", "cosmetic",
     "cosmetic | read_file | error: [… -> Something went wrong:] File"),
    ("mkdir.basics.new_dir", "refuse_mkdir", "wrong_refusal",
     "wrong_refusal | mkdir | throws: EACCES: permission denied,"),
])
def test_a_bug_is_classed_by_the_harm_the_harness_saw(case_id, bug, harm, signature, monkeypatch):
    result = run(case_id, bug, monkeypatch)
    assert (result.outcome, result.harm, result.signature) == (FAILED, harm, signature)


def test_a_header_only_difference_is_metadata_and_reads_the_same_in_every_case(monkeypatch):
    results = [run(cid, "header_zero", monkeypatch) for cid in
               ("read_file.output.show_line_numbers_false", "read_file.output.trailing_newline_extra_row")]
    assert {(r.harm, r.signature) for r in results} == {
        ("metadata", "metadata | read_file | text: [… -> 0] bytes")}


def test_a_data_loss_after_a_cosmetic_difference_is_still_found_and_ranks_the_case(monkeypatch, tmp_path):
    """The first step differs only in its wording; the second deletes a file it should not: the case
    goes on after the first difference, and its harm is the second's."""
    steps = [
        {"id": "missing", "tool": "mastra_workspace_read_file", "args": {"path": "nope.txt"},
         "expect": {"error": "File not found: nope.txt"}},
        {"id": "delete", "tool": "mastra_workspace_delete", "args": {"path": "a.txt"}, "expect": {"text": "Deleted a.txt"}},
    ]
    case = Case(id="t.keep_going", tool="delete", title="t", claims=["tools.inventory.id_prefix"], file="x.yaml",
                line=1, setup={"files": {"a.txt": "a\n", "b.txt": "keep\n"}}, steps=steps, needs=["filesystem"])
    pinned = run_case(case, ReferenceAdapter())
    assert pinned.outcome == PASSED
    case.states = merge_runs([pinned.observed])
    monkeypatch.setenv("WSCONF_FAKE_BUG", "error_wording")
    assert run_case(case, BuggyAdapter()).harm == "cosmetic"
    monkeypatch.setenv("WSCONF_FAKE_BUG", "delete_siblings")
    alone = run_case(case, BuggyAdapter())  # the first step is right here: only the delete differs
    assert [(d["step"], d["harm"]) for d in alone.divergences] == [("delete", "data_loss")]

    class Both(BuggyAdapter):
        def open(self, *a):
            session = super().open(*a)
            session.bug = "error_wording"
            call = session.call

            def both(tool, args, options=None):
                session.bug = "delete_siblings" if tool.endswith("delete") else "error_wording"
                return call(tool, args, options)
            session.call = both
            return session
    result = run_case(case, Both())
    assert [(d["step"], d["kind"], d["harm"]) for d in result.divergences] == [
        ("missing", "output", "cosmetic"), ("delete", "state", "data_loss")]
    assert result.harm == "data_loss"
    first, rest = result.message.split("\n", 1)
    assert first == "step 'missing' (missing (mastra_workspace_read_file)): the error message differs"
    assert rest.endswith("then 1 more difference(s):\n  step 'delete' (delete (mastra_workspace_delete)): the root is "
                         "not as the upstream left it: file b.txt should have stayed as it was, but it was removed")


def test_a_step_needing_a_value_that_a_differing_step_did_not_give_is_not_judged():
    steps = [
        {"id": "write", "tool": "mastra_workspace_write_file", "args": {"path": "a.txt", "content": "hello"},
         "expect": {"text": "Wrote {{int}} bytes to b.txt"}},      # wrong on purpose: no {{int}} is captured
        {"id": "read", "tool": "mastra_workspace_read_file", "args": {"path": "a.txt", "offset": "{{int}}"},
         "expect": {"text": "never compared"}},
    ]
    case = Case(id="t.not_judged", tool="write_file", title="t", claims=["tools.inventory.id_prefix"], file="x.yaml",
                line=1, steps=steps, needs=["filesystem"])
    result = run_case(case, ReferenceAdapter())
    assert result.outcome == FAILED
    assert [d["step"] for d in result.divergences] == ["write"]
    assert result.not_judged == [{"step": "read", "call": "read (mastra_workspace_read_file)",
                                  "reason": "needs {{int}}, which an earlier step that differed did not give"}]
    assert result.message.endswith("not judged: step 'read' (read (mastra_workspace_read_file)): needs {{int}}, "
                                   "which an earlier step that differed did not give")


def test_without_posix_errors_an_expected_error_is_judged_as_a_refusal_only(monkeypatch):
    monkeypatch.setenv("WSCONF_FAKE_BUG", "error_wording")

    class NoCodes(BuggyAdapter):
        capabilities = frozenset(BuggyAdapter.capabilities - {"posix_errors"})
    case = SPEC.cases_by_id["read_file.errors.missing_file"]
    assert case.lenient == ("posix_errors",)
    result = run_case(case, NoCodes())
    assert (result.outcome, result.lenient) == (PASSED, ["posix_errors"])
    monkeypatch.setenv("WSCONF_FAKE_BUG", "")
    answered = run_case(case, type("Accepts", (NoCodes,), {"open": _accepting_open})())
    assert (answered.outcome, answered.harm) == (FAILED, "wrong_acceptance")


def _accepting_open(self, *args):
    session = BuggyAdapter.open(self, *args)
    session.call = lambda tool, a, options=None: {"kind": "text", "value": "", "model": None}
    return session


def test_an_implementation_declaring_the_former_local_paths_runs_the_cases_it_became(monkeypatch):
    class Old(BuggyAdapter):
        capabilities = frozenset(BuggyAdapter.capabilities - {"absolute_paths", "containment", "host_paths",
                                                              "local_identity"} | {"local_paths"})
    case = SPEC.cases_by_id["read_file.containment.dotdot_escape"]
    assert "containment" in case.needs
    assert run_case(case, Old()).outcome == PASSED

    class Neither(Old):
        capabilities = frozenset(Old.capabilities - {"local_paths"})
    assert run_case(case, Neither()).outcome == UNSUPPORTED


# -- the root's state -------------------------------------------------------------------------------

def test_the_root_is_observed_with_its_own_paths_named(tmp_path):
    root = tmp_path / "root"
    (root / "d").mkdir(parents=True)
    (root / "d" / "f.txt").write_text(f"at {root}/d\n")
    (root / "link").symlink_to(root / "d")
    state = observe(root, {"root": str(root)})
    assert state == {"d": "d", "link": "l:{{root}}/d", "d/f.txt": state["d/f.txt"]}
    assert state["d/f.txt"].startswith(f"f:{len('at {{root}}/d') + 1}:")


def test_pinned_entries_match_their_variable_parts():
    assert entry_matches("f:3:*", "f:3:abc") and not entry_matches("f:3:*", "f:4:abc")
    assert entry_matches("?f:3:abc", None) and entry_matches("?f:3:abc", "f:3:abc")
    assert entry_matches("l:*", "l:/x") and not entry_matches("l:*", "f:1:a")
    assert entry_matches("*", "d") and not entry_matches("*", None)
    assert differences({"//m/mount-*#1": "f:*:*", "a": "d"}, {"m/mount-x1y2": "f:3:a", "a": "d", "b": "d"}) == {
        "b": (None, "d")}
    # a real name holding glob characters is compared as the name it is
    assert differences({"a*[x]?.txt": "f:1:ab"}, {"a*[x]?.txt": "f:1:ab", "ab.txt": "f:1:ab"}) == {
        "ab.txt": (None, "f:1:ab")}
    assert differences({"a": "d"}, {}, dirs=False) == {}
    # a file named with glob characters is itself, not a pattern; only `*` of a random name's pin is one
    name = "d/semi;colon|pipe&amp*glob?[x].txt"
    assert differences({name: "f:3:a", "//m/mount-*#1": "f:*:*"}, {name: "f:3:a", "m/mount-[1]": "f:3:b"}) == {}
    # a random name's own glob characters are its own: only its `*` is the random part
    assert differences({"//d/[x]-*#1": "f:*:*"}, {"d/[x]-k3j": "f:3:b"}) == {}
    assert differences({"//d/[x]-*#1": "f:*:*"}, {"d/x-k3j": "f:3:b"}) == {
        "//d/[x]-*#1": ("f:*:*", None), "d/x-k3j": (None, "f:3:b")}
    assert differences({name: "f:3:a"}, {"d/semi;colon|pipe&amp*glob?x.txt": "f:3:a"}) == {
        name: ("f:3:a", None), "d/semi;colon|pipe&amp*glob?x.txt": (None, "f:3:a")}


def test_pins_merge_runs_names_made_at_random_and_what_a_witness_saw_late():
    def run(marker: str, size: int, ready: bool):
        return {"setup": {}, "open": {"+": {".m": "d", f".m/mount-{marker}": f"f:{size}:aa{marker}"}},
                "steps": {"start": {"+": {"ready": "f:0:e3"}} if ready else {}}}
    pinned = merge_runs([run("519zmr", 30, False), run("7bpb1r", 30, False)], [run("q1w2e3", 31, True)])
    assert pinned == {"open": {"+": {".m": "d", "//.m/mount-*#1": "f:30:*"}}, "steps": {"start": {"+": {"ready": "?f:*:*"}}}}
    # a file only some runs saw may be caught halfway written: its bytes are not pinned either
    halfway = merge_runs([run("519zmr", 30, True), run("7bpb1r", 30, False)])
    assert halfway["steps"]["start"] == {"+": {"ready": "?f:*:*"}}


# -- grouping and the report -----------------------------------------------------------------------

def test_abstraction_names_what_varies():
    assert abstract("ENOENT: no such file or directory, open '/tmp/x/a.txt' at 2026-12-06T00:00:00.000Z, 12 bytes") \
        == "ENOENT: no such file or directory, open <q> at <time>, <n> bytes"
    assert abstract("Deleted src/a.ts and b.txt (0 bytes)") == "Deleted <path> and <path> (0 bytes)"
    assert edit_shape("/a.txt (12 bytes)", "/a.txt (0 bytes)") == "[… -> 0] bytes"
    assert edit_shape("Size: 12 bytes", "Size: 0 bytes") == "[… -> 0] bytes"
    assert edit_shape("File not found: a", "Error: file not found: a") == "[… -> Error:] File"
    assert edit_shape("status: pending", "status: ready") == edit_shape("status: destroyed", "status: ready")


def test_output_harm_of_each_kind_of_answer():
    assert output_harm({"error": "x"}, {"kind": "text", "value": "ok"}) == "wrong_acceptance"
    assert output_harm({"text": "ok"}, {"kind": "error", "message": "no"}) == "wrong_refusal"
    assert output_harm({"error": "File not found: a", "error_code": "ENOENT"},
                       {"kind": "error", "message": "missing a", "code": "ENOENT"}) == "cosmetic"
    assert output_harm({"error": "x", "error_code": "ENOENT"}, {"kind": "error", "message": "x", "code": "EISDIR"}) \
        == "wrong_output"
    assert output_harm({"text": "a  b\n"}, {"kind": "text", "value": "a b"}) == "cosmetic"
    assert output_harm({"value": {"size": 3, "name": "a"}}, {"kind": "value", "value": {"size": 0, "name": "a"}}) \
        == "metadata"
    assert output_harm({"value": {"size": 3, "name": "a"}}, {"kind": "value", "value": {"size": 3, "name": "b"}}) \
        == "wrong_output"


def _records(tmp_path, monkeypatch) -> list[dict]:
    """One results file from runs of the buggy adapter: an escape, data loss, cosmetic differences."""
    out = []
    for bug, ids in (("delete_siblings", ["delete.basics.file", "delete.basics.root_recursive"]),
                     ("error_wording", ["read_file.errors.missing_file", "read_file.errors.missing_file_dot_slash_as_typed"])):
        monkeypatch.setenv("WSCONF_FAKE_BUG", bug)
        for cid in ids:
            r = run_case(SPEC.cases_by_id[cid], BuggyAdapter())
            out.append({"id": cid, "tool": SPEC.cases_by_id[cid].tool, "tools": [SPEC.cases_by_id[cid].tool],
                        "claims": SPEC.cases_by_id[cid].claims, "outcome": r.outcome, "message": r.message,
                        "steps": r.steps, "harm": r.harm, "signature": r.signature,
                        "divergences": [{k: v for k, v in d.items() if k != "text"} | {"text": d["text"][:400]}
                                        for d in r.divergences]})
    return out


def test_groups_are_ranked_by_harm_then_size_and_every_failure_is_in_one(tmp_path, monkeypatch):
    records = _records(tmp_path, monkeypatch)
    found = groups(records)
    assert [(g.harm, len(g.cases)) for g in found] == [("escape", 1), ("data_loss", 1), ("cosmetic", 2)]
    assert sum(len(g.cases) for g in found) == sum(r["outcome"] == FAILED for r in records) == 4
    report = as_json(records, {"implementation": "buggy-fs", "version": "0.0.1", "adapter": "buggy"}, SPEC)
    top = report["groups"][0]
    assert top["reproduction"]["show"] == "wsconf show delete.basics.root_recursive"
    assert top["reproduction"]["run"] == "wsconf run --adapter 'buggy' -k 'delete.basics.root_recursive'"
    text = as_markdown(report)
    assert text.startswith("# Findings: buggy-fs 0.0.1\n\n4 case(s) not passing, in 3 group(s): 1 escape, "
                           "1 data loss, 2 cosmetic.\n")
    assert "## 2. data loss inside the root: 1 case(s)" in text


def test_wsconf_findings_reads_a_results_file(tmp_path, monkeypatch):
    path = results_file(tmp_path / "r.jsonl", _records(tmp_path, monkeypatch),
                        {"implementation": "buggy-fs", "version": "0.0.1", "adapter": "buggy"})
    md = subprocess.run([sys.executable, "-m", "wsconf.cli", "findings", str(path), "--top", "1"],
                        capture_output=True, text=True, check=True).stdout
    assert md.splitlines()[4:9] == ["| # | harm | group | cases |", "| ---: | --- | --- | ---: |",
                                    "| 1 | escape | close \\| outside: touched files outside the workspace: <path> | 1 |",
                                    "| | | ... 2 more group(s) | |", ""]
    js = json.loads(subprocess.run([sys.executable, "-m", "wsconf.cli", "findings", str(path), "--format", "json"],
                                   capture_output=True, text=True, check=True).stdout)
    assert [g["harm"] for g in js["groups"]] == ["escape", "data_loss", "cosmetic"]
