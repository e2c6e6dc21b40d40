"""Reports people read: the README table, the HTML page, and compare."""
from __future__ import annotations


from conftest import results_file
from wsconf.cli import main

RECORDS = [
    {"id": "read_file.output.trailing_newline_extra_row", "tool": "read_file", "claims": ["tools.read.output.split_newline"],
     "implementation": "wsref", "outcome": "passed", "message": "", "steps": []},
    {"id": "read_file.errors.missing_file", "tool": "read_file", "claims": ["tools.read.errors.not_found"],
     "implementation": "wsref", "outcome": "failed", "message": "the text differs",
     "steps": [{"id": "read", "call": "read (mastra_workspace_read_file)", "args": {"path": "x"},
                "expected": {"error": "File not found: x"}, "actual": {"kind": "text", "value": "x\t "}}]},
    {"id": "list_files.output.empty_root", "tool": "list_files", "claims": [], "implementation": "wsref",
     "outcome": "xfail", "message": "a known difference", "steps": []},
]


def test_markdown_table_html_page_and_readme_markers(tmp_path, capsys):
    results = results_file(tmp_path / "r.jsonl", RECORDS)
    readme = tmp_path / "README.md"
    readme.write_text("before\n<!-- conformance:start -->\nold\n<!-- conformance:end -->\nafter\n")
    page = tmp_path / "report" / "index.html"
    assert main(["report", f"wsref={results}", "--readme", str(readme), "--html", str(page)]) == 0
    row = "| wsref | 3 | 1 | 1 | 1 | 0 | [wsref.yaml](conformance/expectations/wsref.yaml) |"
    assert row in capsys.readouterr().out
    assert readme.read_text().startswith("before\n<!-- conformance:start -->\n| implementation | cases |")
    assert row in readme.read_text() and readme.read_text().endswith("<!-- conformance:end -->\nafter\n")
    html = page.read_text()
    assert '<td class="bad">1/2 · 1 failed</td>' in html            # read_file row
    assert '<td class="x">0/1 · 1 xfail</td>' in html               # list_files row
    assert "read_file.errors.missing_file" in html and "File not found: x" in html
    assert "“" in html  # claim quotes are shown


def test_compare_finds_no_difference_between_the_reference_in_process_and_over_the_protocol(capsys):
    assert main(["compare", "reference", "reference-protocol", "--tool", "mkdir"]) == 0
    assert "0 of " in capsys.readouterr().out


def test_report_merges_the_shards_of_one_run_and_refuses_a_case_counted_twice(tmp_path, capsys):
    """A CI matrix runs some tools per machine; `wsconf report` joins the shards given one label."""
    import pytest

    rec = {"tool": "grep", "claims": [], "implementation": "wsref", "version": "0", "message": "", "detail": "",
           "duration": 0.0, "steps": []}
    results_file(tmp_path / "a.jsonl", [{**rec, "id": f"a{i}", "outcome": "passed"} for i in range(3)])
    results_file(tmp_path / "b.jsonl", [{**rec, "id": "b0", "outcome": "failed"}])
    assert main(["report", f"wsref={tmp_path / 'a.jsonl'}", f"wsref={tmp_path / 'b.jsonl'}"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| wsref")]
    assert rows == ["| wsref | 4 | 3 | 1 | 0 | 0 | [wsref.yaml](conformance/expectations/wsref.yaml) |"]
    with pytest.raises(SystemExit, match="more than one results file: a0"):
        main(["report", f"wsref={tmp_path / 'a.jsonl'}", f"wsref={tmp_path / 'a.jsonl'}"])
