"""tools/mutation's targets and report: every module of wsref is a target but js/ and server/ (a new one
without a list), and the summary scores each kind of module apart, with survivors of another platform
counted apart and the open gaps listed, while SURVIVORS.md lists them all."""
from __future__ import annotations

import json

from tools.mutation import cli, engine, report


def test_every_module_outside_js_and_server_is_a_target(tmp_path, monkeypatch):
    targets = cli.target_modules()
    for module in ("wsref/workspace.py", "wsref/glob.py", "wsref/skills/workspace_skills.py",
                   "wsref/skills/schemas.py", "wsref/search/bm25.py", "wsref/search/search_engine.py",
                   "wsref/tools/read_file.py", "wsref/lsp/manager.py", "wsref/js/tokenx.py"):
        assert module in targets
    assert not [m for m in targets if m.startswith("wsref/server/") or (m.startswith("wsref/js/") and m != "wsref/js/tokenx.py")]
    assert "wsref/skills/__init__.py" not in targets   # imports only: nothing to mutate
    # a module added tomorrow is a target without being listed anywhere
    fake = tmp_path / "reference"
    (fake / "wsref" / "skills").mkdir(parents=True)
    (fake / "wsref" / "server").mkdir()
    (fake / "wsref" / "skills" / "brand_new.py").write_text("def f(x):\n    return x + 1\n")
    (fake / "wsref" / "skills" / "__init__.py").write_text("from .brand_new import f\n")
    (fake / "wsref" / "server" / "wire2.py").write_text("def g(x):\n    return x - 1\n")
    monkeypatch.setattr(engine, "REFERENCE", fake)
    cli.target_modules.cache_clear()
    try:
        assert cli.target_modules() == ("wsref/skills/brand_new.py", "wsref/js/tokenx.py")
    finally:
        cli.target_modules.cache_clear()


def test_module_kinds():
    kinds = {m: report.module_kind(m) for m in (
        "wsref/tools/grep.py", "wsref/filesystem/local_filesystem.py", "wsref/sandbox/native_sandbox/bubblewrap.py",
        "wsref/workspace.py", "wsref/skills/publish.py", "wsref/search/bm25.py", "wsref/lsp/client.py",
        "wsref/core/memory/mock.py", "wsref/glob.py", "wsref/js/tokenx.py")}
    assert list(kinds.values()) == ["tools", "filesystem", "sandbox", "workspace", "skills", "search", "lsp", "core",
                                    "other", "other"]


def _results(tmp_path, module, statuses):
    path = report.results_path(tmp_path / "results", module)
    path.parent.mkdir(parents=True, exist_ok=True)
    mutants = [{"id": f"{module}:f:{i}", "line": i + 1, "kind": "const", "description": f"m{i}", "scope": "f",
                "status": status} for i, status in enumerate(statuses)]
    path.write_text(json.dumps({"module": module, "source_sha": engine.sha_of_files([engine.REFERENCE / module]),
                                "spec_key": "k", "lines": None, "mutants": mutants}))


def test_the_summary_scores_each_kind_and_lists_the_open_gaps(tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "spec_key", lambda root: "k")
    _results(tmp_path, "wsref/skills/publish.py", ["killed", "killed", "survived", "survived", "uncovered"])
    _results(tmp_path, "wsref/search/bm25.py", ["killed", "timeout"])
    verdicts = tmp_path / "verdicts.yaml"
    verdicts.write_text("verdicts:\n"
                        "  wsref/skills/publish.py:f:2: {verdict: platform, reason: only on macOS}\n"
                        "  wsref/skills/publish.py:f:3: {verdict: gap, reason: no case publishes twice}\n"
                        "  wsref/search/bm25.py:f:0: {verdict: equivalent, reason: wrongly judged}\n")
    summary, survivors = tmp_path / "MUTATION.md", tmp_path / "tools" / "SURVIVORS.md"
    survivors.parent.mkdir()
    modules = ["wsref/skills/publish.py", "wsref/search/bm25.py", "wsref/workspace.py"]
    out = report.write(summary, survivors, tmp_path / "results", modules, tmp_path, verdicts, "cmd")
    text = summary.read_text()
    # skills: 2 killed, 1 other platform (apart), 2 survivors left (a gap, one not judged): 2 / 4
    assert "| skills | 1 | 0 | 5 | 2 | 0 | 2 | 0 | 1 | 0 | 0.500 |" in text
    assert "| search | 1 | 0 | 2 | 1 | 1 | 0 | 0 | 0 | 0 | 1.000 |" in text
    assert "| workspace | 0 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | n/a |" in text
    assert "| `wsref/skills/publish.py` | skills | 5 | 2 | 0 | 2 | 0 | 1 | 0 | 0.500 |" in text
    assert "**Measured modules: 2 of 3; score 0.667**" in text
    assert "[tools/SURVIVORS.md](tools/SURVIVORS.md)" in text
    open_part = text[text.index("## Open gaps"):]
    assert "**gap, open**: no case publishes twice" in open_part and "**not judged yet**" in open_part
    assert "only on macOS" not in open_part
    assert len(out["open"]) == 2
    listed = survivors.read_text()
    assert "other platform: only on macOS" in listed and "**gap, open**: no case publishes twice" in listed
    assert "(no case runs this line)" in listed
    assert "## Verdicts a kill contradicts" in listed and "`wsref/search/bm25.py` line 1" in listed
    assert "[the summary](../MUTATION.md)" in listed


def test_a_recorded_run_stands_in_while_the_module_is_unchanged(tmp_path, monkeypatch):
    """A fresh clone has no .mutation/: the committed record gives each module's last run, as long as
    the module's source is the one it measured; a module measured here replaces its entry."""
    monkeypatch.setattr(engine, "spec_key", lambda root: "k")
    _results(tmp_path / "first", "wsref/skills/publish.py", ["killed", "killed", "killed", "survived"])
    record, verdicts = tmp_path / "recorded.json", tmp_path / "verdicts.yaml"
    verdicts.write_text("verdicts: {}\n")
    args = (tmp_path / "S.md", tmp_path / "first" / "results", ["wsref/skills/publish.py", "wsref/search/bm25.py"],
            tmp_path, verdicts, "cmd")
    report.write(tmp_path / "M.md", *args, record_path=record, run="run on abc")
    entry = json.loads(record.read_text())["wsref/skills/publish.py"]
    assert entry["statuses"] == {"killed": 3} and entry["run"] == "run on abc" and len(entry["survivors"]) == 1
    # elsewhere, with no results at all: the same numbers, marked recorded; the survivor keeps its id for verdicts
    verdicts.write_text("verdicts:\n  wsref/skills/publish.py:f:3: {verdict: equivalent, reason: same output}\n")
    report.write(tmp_path / "M2.md", tmp_path / "S2.md", tmp_path / "empty", *args[2:], record_path=record)
    text = (tmp_path / "M2.md").read_text()
    assert "| `wsref/skills/publish.py` (recorded) | skills | 4 | 3 | 0 | 0 | 1 | 0 | 0 | 1.000 |" in text
    assert "- `wsref/search/bm25.py` (search): not measured" in text
    # once the module's source changes, its record no longer counts
    monkeypatch.setattr(engine, "sha_of_files", lambda paths: "changed")
    report.write(tmp_path / "M3.md", tmp_path / "S3.md", tmp_path / "empty", *args[2:], record_path=record)
    assert "- `wsref/skills/publish.py` (skills): not measured" in (tmp_path / "M3.md").read_text()
