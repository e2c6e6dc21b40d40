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
                "expected": {"error": "File not found: x"}, "actual": {"kind": "text", "value": "x\t \ud83d"}}]},
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
    assert "x\\t \\ud83d" in html  # half an emoji (an implementation's output cut mid-character) as its escape


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


def test_by_tool_is_counted_one_way_in_the_summary_the_report_the_html_and_the_site(tmp_path, capsys):
    """One results file, four readers: a case counts under every tool it calls in each of them, so a
    CI log (the run's summary) and the reports made from its results file agree tool by tool."""
    import re

    from conftest import run_suite
    from wsconf.results.records import by_tool
    code, records, out = run_suite(tmp_path, "reference", "--wsconf-tool", "write_file", "--wsconf-all-tools",
                                   "--wsconf-tools", "read_file,write_file")
    assert code in (0, 1) and records, out[-3000:]  # the counts must agree whatever the outcomes (a loaded machine)
    summary = out.split("wsconf summary", 1)[1].splitlines()[2:]
    in_run = {}
    for line in summary:
        if not line.strip() or line.startswith("("):
            break
        tool, cases, passed, *_ = line.split()
        in_run[tool] = (int(cases), int(passed))
    assert {"read_file", "write_file", "all"} <= set(in_run)
    assert in_run == {tool: (sum(c.values()), c["passed"]) for tool, c in by_tool(records).items()}
    # write_file cases that also read count under read_file, though no case of read_file's own files ran
    assert in_run["read_file"][0] > 0 and not any(r["tool"] == "read_file" for r in records)

    results = tmp_path / next(p.name for p in tmp_path.glob("*.jsonl"))
    assert main(["report", f"wsref={results}", "--by-tool", "--html", str(tmp_path / "r.html")]) == 0
    table = capsys.readouterr().out
    in_report = {row[1]: (int(row[2]), int(row[3])) for line in table.splitlines()
                 if (row := [c.strip() for c in line.split("|")])[1:2] and row[2].isdigit() and not row[1].startswith("wsref")}
    assert in_report == in_run
    html = (tmp_path / "r.html").read_text()
    in_html = {tool: int(passed) for tool, passed in re.findall(r"<tr><td>([a-z_]+)</td><td[^>]*>(\d+)/", html)}
    assert in_html == {tool: passed for tool, (_, passed) in in_run.items()}
    # the site, with these results as one implementation's
    assert main(["site", str(results), "--no-matrix", "-o", str(tmp_path / "site")]) == 0
    site = (tmp_path / "site" / "index.html").read_text()
    in_site = {tool: int(passed) for tool, passed in
               re.findall(r'<tr><td><a href="tool/([a-z_]+)\.html">[a-z_]+</a></td><td class=num>\d+</td><td class="[a-z]+">(\d+)/', site)}
    assert {tool: in_site[tool] for tool in in_run if tool != "all"} == \
        {tool: passed for tool, (_, passed) in in_run.items() if tool != "all"}


def test_the_summary_shows_the_implementations_tools_and_what_their_unsupported_cases_lack():
    from wsconf.session.summary import summary_lines

    def record(case_id, tools, outcome, capabilities=(), lacking=()):
        missing = {"capabilities": list(capabilities), "tools": list(lacking)} if outcome == "unsupported" else None
        return {"id": case_id, "tool": tools[0], "tools": tools, "outcome": outcome,
                **({"missing": missing} if missing else {})}
    records = [record("a", ["read_file"], "passed"), record("b", ["read_file"], "xfail"),
               record("c", ["read_file"], "unsupported", ["tool_config"]),
               record("d", ["read_file", "grep"], "unsupported", ["media", "tool_config"], ["grep"]),
               record("e", ["grep"], "unsupported", [], ["grep"]), record("f", ["mkdir"], "unsupported", [], ["mkdir"])]
    head = f"{'tool':<22}{'cases':>7}" + "".join(f"{c:>15}" for c in (
        "passed", "failed", "xfail", "xpass", "unsupported", "not applicable", "error"))

    def row(tool, *counts):
        return f"{tool:<22}{sum(counts[:7]):>7}" + "".join(f"{n:>15}" for n in counts)
    assert summary_lines(records, ["read_file"], all_tools=False) == [
        head, row("read_file", 1, 0, 1, 0, 2, 0, 0), row("all", 1, 0, 1, 0, 4, 0, 0),
        "(2 tools the implementation does not have are left out of the table; --all-tools shows them)", "",
        "unsupported cases, by what they need that the implementation lacks:",
        "  read_file: 2 unsupported: 2 need tool_config, 1 need media, 1 call grep"]
    everything = summary_lines(records, ["read_file"], all_tools=True)
    assert everything[1:5] == [row("grep", 0, 0, 0, 0, 2, 0, 0), row("mkdir", 0, 0, 0, 0, 1, 0, 0),
                               row("read_file", 1, 0, 1, 0, 2, 0, 0), row("all", 1, 0, 1, 0, 4, 0, 0)]
    assert everything[-3:] == ["  grep: 2 unsupported: 2 call grep, 1 need media, 1 need tool_config",
                               "  mkdir: 1 unsupported: 1 call mkdir",
                               "  read_file: 2 unsupported: 2 need tool_config, 1 need media, 1 call grep"]


def test_the_html_report_diffs_a_result_in_the_words_of_its_expectation_and_greys_what_did_not_run(tmp_path):
    """An error expected as {error, error_code} and answered as {kind, message, code}: the diff shows the one
    line that differs (the code), not every line renamed; a tool whose every case is unsupported is not green."""
    import html as html_module

    from wsconf.reports.html import render
    step = {"id": "read", "call": "read (mastra_workspace_read_file)", "args": {"path": "x"},
            "expected": {"error": "File not found: x", "error_code": "ENOENT"},
            "actual": {"kind": "error", "message": "File not found: x", "code": "EACCES", "name": "PermissionError"}}
    records = [{"id": "read_file.errors.missing_file", "tool": "read_file", "claims": [], "outcome": "failed",
                "message": "error code: expected 'ENOENT', got 'EACCES'", "steps": [step]},
               *({"id": f"grep.t.{n}", "tool": "grep", "claims": [], "outcome": "unsupported", "message": "lacks",
                  "steps": []} for n in range(29))]
    page = render([("port", records)])
    diff = html_module.unescape(page.split("<p>diff</p><pre>", 1)[1].split("</pre>", 1)[0])
    assert [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")] == [
        '-  "error_code": "ENOENT"', '+  "error_code": "EACCES"']
    assert '<tr><td>grep</td><td class="na">0/29 · 29 unsupported</td></tr>' in page
    assert '<tr><td>read_file</td><td class="bad">0/1 · 1 failed</td></tr>' in page


def test_the_site_leaves_out_a_results_file_changed_after_the_run(tmp_path, capsys):
    """The site reads results through their digest: the end line vouches for the lines before it, as
    for report, compare and findings; a changed file is named and left out, the site goes on."""
    import json
    good = results_file(tmp_path / "good.jsonl", RECORDS)
    changed = results_file(tmp_path / "changed.jsonl", RECORDS)
    changed.write_text(changed.read_text().replace('"outcome": "failed"', '"outcome": "passed"', 1))
    appended = results_file(tmp_path / "appended.jsonl", RECORDS)
    lines = len(appended.read_text().splitlines())  # the end line is the last
    appended.write_text(appended.read_text() + json.dumps(RECORDS[0]) + "\n")
    shapeless = results_file(tmp_path / "shapeless.jsonl", RECORDS)
    shapeless.write_text("".join(shapeless.read_text().splitlines(keepends=True)[:-1]) + '{"end": "trust me"}\n')
    assert main(["site", str(good), str(changed), str(appended), str(shapeless), "--no-matrix",
                 "-o", str(tmp_path / "site")]) == 0
    left_out = [line for line in capsys.readouterr().err.splitlines() if line.endswith("left out")]
    assert left_out == [
        f"wsconf site: {changed}: not a results file ({changed}:{lines}: the sha256 in the end line does not match "
        "the lines before it: the file was changed after the run); left out",
        f"wsconf site: {appended}: not a results file ({appended}:{lines + 1}: a line after the end line: the file "
        "was changed after the run); left out",
        f"wsconf site: {shapeless}: not a results file ({shapeless}:{lines}: the sha256 in the end line does not "
        "match the lines before it: the file was changed after the run); left out"]
