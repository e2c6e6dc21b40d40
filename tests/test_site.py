"""The report site: built from any results (a port, a provider, the release matrix), labelled by each
run's own implementation and version, with a page per tool, case, claim, implementation and release;
no broken link, no page over 1 MB; and checked in a real browser (headless Chromium)."""
from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import pytest
from browser import CHROMIUM, MISSING, Chromium
from conftest import REPO
from wsconf.cli import main
from wsconf.releases.changelog import changes, lines_by_release
from wsconf.releases.history import load_digests
from wsconf.reports.case_text import body_lines
from wsconf.reports.site import write_site
from wsconf.reports.site.build import NotASite
from wsconf.reports.site.links import broken_links
from wsconf.results.digest import load_digest
from wsconf.spec import load_spec
from wsconf.spec.versions import satisfies

PORT, PROVIDER = "example-python-port", "@mastra/s3"
PORT_TOOLS = {"read_file", "list_files", "file_stat"}
RELEASES = ("1.65.0", "1.70.0", "1.71.0")


def _text_case(spec, tool):
    """A case of `tool` whose first step is a call of it expecting a text, and checking a claim."""
    return next(c for c in spec.cases if c.tool == tool and c.steps and c.steps[0].get("tool") == f"mastra_workspace_{tool}"
                and "text" in (c.steps[0].get("expect") or {}) and c.claims and set(c.families) <= PORT_TOOLS
                and all(satisfies(v, c.versions) for v in RELEASES if c.versions))


def _record(case, implementation, version, outcome, text=None, harm="wrong_output", message=""):
    record = {"id": case.id, "tool": case.tool, "tools": list(case.families), "claims": case.claims,
              "implementation": implementation, "version": version, "outcome": outcome, "message": message,
              "duration": 0.01, "steps": []}
    if text is not None:
        step = case.steps[0]
        call = f"{step['id']} ({step['tool']})"
        record["steps"] = [{"id": step["id"], "call": call, "args": step.get("args", {}), "expected": step["expect"],
                            "actual": {"kind": "text", "value": text, "model": None}}]
        record.update(message=f"step {step['id']!r} ({call}): the text differs", harm=harm,
                      signature=f"{harm} | {case.tool} | text: differs",
                      divergences=[{"step": step["id"], "call": call, "kind": "output", "harm": harm,
                                    "text": f"step {step['id']!r} ({call}): the text differs"}])
    return record


def _write(path: Path, run: dict, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(json.dumps(x) for x in [{"run": run}] + records) + "\n")
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The whole site (every case of the spec) from a port's, a provider's and a three-release matrix's results."""
    tmp = tmp_path_factory.mktemp("site")
    spec = load_spec()
    failing, known, lost = _text_case(spec, "read_file"), _text_case(spec, "list_files"), _text_case(spec, "file_stat")
    expectations = tmp / "port-expectations" / f"{PORT}.yaml"
    expectations.parent.mkdir()
    expectations.write_text(f"implementation: {PORT}\nfailures:\n  {known.id}: \"lists folders first\"\n")
    port = []
    for case in spec.cases:
        if case is failing:
            port.append(_record(case, PORT, "0.1.0", "failed", "a.txt (0 bytes)\n"))
        elif case is known:
            port.append(_record(case, PORT, "0.1.0", "xfail", "b/\na.txt\n"))
        elif set(case.families) <= PORT_TOOLS:
            port.append(_record(case, PORT, "0.1.0", "passed"))
        else:
            port.append(_record(case, PORT, "0.1.0", "unsupported", message=f"{PORT} does not implement "
                                                                              f"{sorted(set(case.families) - PORT_TOOLS)[0]}"))
    provider = [_record(c, PROVIDER, "0.6.1", "failed", "gone\n", harm="data_loss") if c is lost
                else _record(c, PROVIDER, "0.6.1", "passed") for c in spec.cases]
    given = [(_write(tmp / "port.jsonl", {"implementation": PORT, "version": "0.1.0", "adapter": "cmd:python3 port.py",
                                          "expectations": str(expectations), "dependencies": {"python": "3.11.7"}}, port),
              "port.jsonl"),
             (_write(tmp / "s3.jsonl", {"implementation": PROVIDER, "version": "0.6.1", "adapter": "mastra-s3",
                                        "dependencies": {"@mastra/core": "1.71.0", "node": "20.20.2"}}, provider),
              "s3.jsonl")]
    for version in RELEASES:
        records = [_record(c, "@mastra/core", version, "failed", "old text\n") if c is failing and version == "1.65.0"
                   else _record(c, "@mastra/core", version, "passed") for c in spec.cases]
        _write(tmp / "matrix" / version / "results.jsonl", {"implementation": "@mastra/core", "version": version}, records)
    releases = load_digests(tmp / "matrix")
    out = tmp / "out"
    lines = lines_by_release(changes(releases, spec))
    pages = write_site(out, spec, [(load_digest(p), name) for p, name in given], releases, lines)
    return {"lines": lines, "out": out, "pages": pages, "spec": spec, "failing": failing, "known": known, "lost": lost, "tmp": tmp}


def _read(site, rel: str) -> str:
    return (site["out"] / rel).read_text(encoding="utf-8")


def test_each_implementation_is_labelled_by_its_run_and_only_the_upstream_has_releases(site):
    index = _read(site, "index.html")
    assert 'href="implementation/example-python-port-0.1.0.html">example-python-port 0.1.0</a>' in index
    assert '>@mastra/s3 0.6.1</a> <span class=tag>on @mastra/core 1.71.0</span>' in index
    assert '>@mastra/core 1.71.0</a>' in index  # the matrix's newest release, a column of its own
    releases = sorted(p for p in site["pages"] if p.startswith("release/"))
    assert releases == [f"release/{v}.html" for v in RELEASES]  # never 0.1.0 or 0.6.1
    html_pages = [p for p in site["pages"] if p.endswith(".html")]
    assert len(html_pages) > 2000 and len([p for p in html_pages if p.startswith("case/")]) == len(site["spec"].cases)


def test_a_case_page_shows_what_wsconf_show_shows_and_each_implementations_result(site):
    case = site["failing"]
    page = _read(site, f"case/{case.id}.html")
    # the setup, every call and its exact expected result: wsconf show's own text, glyphs and all
    assert "<pre>" + html.escape("\n".join(body_lines(case)).strip("\n")) + "</pre>" in page
    assert "Glyphs: " in page or "No glyphs in this case." in page
    for cid in case.claims:
        assert f'href="../claim/{cid}.html">{cid}</a> <span class="quote">“{html.escape(site["spec"].claims[cid].quote)}”' in page
    port = page.split('id="example-python-port-0.1.0"', 1)[1].split("</section>", 1)[0]
    assert "failed: wrong output" in port and "diff (expected → actual)" in port and "+a.txt (0 bytes)" in port
    s3 = page.split('id="@mastra-s3-0.6.1"', 1)[1].split("</section>", 1)[0]
    assert '<span class="ok">passed</span>' in s3
    history = page.split("<h2 id=history>", 1)[1]
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td>", history)
    assert [(re.sub("<[^>]+>", "", a), re.sub("<[^>]+>", "", b)) for a, b in rows] == [
        ("1.70.0 – 1.71.0 (2)", "passed"), ("1.65.0", "failed: wrong output")]
    assert "what 1.65.0 answered" in history and "+old text" in history
    # its behaviour change at 1.70.0, where BEHAVIOUR-CHANGES.md links to it
    (line,) = site["lines"]["1.70.0"]
    release = _read(site, "release/1.70.0.html")
    assert f'<li id="{line.anchor}"><b>' in release and f'href="../case/{case.id}.html"' in release
    assert "-old text" in release and line.first.verdict == "now as pinned"


def test_the_known_failure_shows_its_reason_and_the_tool_page_has_the_compatibility_table(site):
    known = site["known"]
    assert "Listed in its expectations: <i>lists folders first</i>" in _read(site, f"case/{known.id}.html")
    impl = _read(site, "implementation/example-python-port-0.1.0.html")
    assert "lists folders first" in impl and "Findings, worst first" in impl
    tool = _read(site, "tool/read_file.html")
    claim = site["failing"].claims[0]
    row = tool.split(f'<a href="../claim/{claim}.html">{claim}</a>', 1)[1].split("</tr>", 1)[0]
    cells = re.findall(r'<td class="cell (\w+)" title="[^"]*">(.*?)</td>', row)
    assert cells[0][0] == "bad" and f'href="../case/{site["failing"].id}.html#example-python-port-0.1.0">✗ wrong output' in cells[0][1]
    assert cells[1][0] == "ok" and cells[2][0] == "ok"  # @mastra/s3 and @mastra/core 1.71.0
    grep = _read(site, "tool/grep.html")
    assert '<td class="cell na"' in grep and ">unsupported</a></td>" in grep  # the port lacks grep
    file_stat = _read(site, "tool/file_stat.html")
    assert "✗ data loss" in file_stat  # the provider's failure, by its harm


def test_no_broken_links_and_no_page_over_1_mb(site):
    out = site["out"]
    assert broken_links(out) == []
    # what the checker is shown to find: a missing page, and a page without the anchor named
    (out / "tool" / "zz-probe.html").write_text('<a href="../nowhere.html">x</a> <a href="../index.html#no-such">y</a>')
    try:
        assert broken_links(out) == ["tool/zz-probe.html -> ../nowhere.html",
                                     "tool/zz-probe.html -> ../index.html#no-such (no such anchor)"]
    finally:
        (out / "tool" / "zz-probe.html").unlink()
    assert [rel for rel in site["pages"] if (out / rel).stat().st_size > 1_000_000] == []


def test_a_folder_the_site_did_not_write_is_never_replaced(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(NotASite, match="refusing to replace it"):
        write_site(tmp_path, load_spec(), [])
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_site_without_results_says_how_to_get_some(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["site", "--no-matrix", "-o", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err
    assert "no results to show" in err and "wsconf site results/reference.jsonl" in err
    assert main(["site", "missing.jsonl", "--no-matrix"]) == 2
    assert "no such results file: missing.jsonl" in capsys.readouterr().err
    assert main(["changelog", "--results", str(_write(tmp_path / "p.jsonl", {"implementation": PORT, "version": "0.1.0"}, [])),
                 str(tmp_path / "p.jsonl")]) == 2
    assert "results of example-python-port 0.1.0, not of @mastra/core" in capsys.readouterr().err


@pytest.mark.skipif(CHROMIUM is None, reason=MISSING)
def test_the_site_works_in_a_real_browser(site, tmp_path):
    """Chromium loads the index, a tool page, a case page and an implementation page, runs the search
    and follows links; the pages fit 1400 px; the screenshots are kept for review in report/screenshots/
    (ignored by git; WSCONF_SCREENSHOTS=DIR puts them elsewhere)."""
    shots = Path(os.environ.get("WSCONF_SCREENSHOTS") or REPO / "report" / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    for old in shots.glob("*.png"):
        old.unlink()
    out, case = site["out"], site["failing"]
    browser = Chromium(tmp_path / "profile")
    try:
        browser.open((out / "index.html").as_uri())
        assert browser.evaluate("document.body.dataset.ready") == "1"
        assert browser.evaluate("document.documentElement.scrollWidth <= innerWidth")  # nothing overflows 1400 px
        browser.screenshot(shots / "index.png")
        assert browser.follow('a[href="tool/read_file.html"]').endswith("/tool/read_file.html")
        assert browser.evaluate("document.querySelectorAll('table.compat tr').length") > 10
        assert browser.evaluate("document.documentElement.scrollWidth <= innerWidth")
        browser.screenshot(shots / "tool.png")
        # a cell of the compatibility table leads to the evidence: the case, at the port's result
        href = browser.follow(f'table.compat a[href="../case/{case.id}.html#example-python-port-0.1.0"]')
        assert href.endswith(f"/case/{case.id}.html#example-python-port-0.1.0")
        assert browser.evaluate("document.getElementById('example-python-port-0.1.0').textContent").count("diff (expected → actual)") == 1
        assert browser.evaluate("getComputedStyle(document.querySelector('main p')).textAlign") in ("start", "left")
        browser.screenshot(shots / "case.png")
        assert browser.follow('a[href="../implementation/example-python-port-0.1.0.html"]').endswith(
            "/implementation/example-python-port-0.1.0.html")
        assert "lists folders first" in browser.evaluate("document.body.textContent")
        browser.screenshot(shots / "implementation.png")
        # the search: from the header's box on any page, then typing on the search page
        browser.open((out / "search.html").as_uri() + "?q=" + case.id.split(".")[-1])
        assert browser.evaluate("document.getElementById('results-count').textContent").endswith("found")
        browser.type_into("#q", "contradicted")  # the errata's words find them
        assert browser.evaluate("[...document.querySelectorAll('#results .badge')].some(b => b.textContent == 'erratum')")
        browser.type_into("#q", case.id)
        assert browser.evaluate("document.querySelectorAll('#results li').length") == 1
        browser.screenshot(shots / "search.png")
        assert browser.follow(f'#results a[href="case/{case.id}.html"]').endswith(f"/case/{case.id}.html")
        # the filter of the case list, as you type
        browser.open((out / "cases.html").as_uri())
        browser.type_into("input[data-scope]", case.id)
        assert browser.evaluate("document.getElementById('caselist-count').textContent") == "1 shown"
        assert browser.problems() == []
    finally:
        browser.close()
    assert all((shots / name).stat().st_size > 10_000 for name in ("index.png", "tool.png", "case.png",
                                                                    "implementation.png", "search.png"))


def test_an_unreadable_expectations_file_is_named_on_its_page_and_the_site_goes_on(tmp_path):
    import dataclasses
    full = load_spec()
    spec = dataclasses.replace(full, cases=full.cases[:5])
    bad = tmp_path / f"{PORT}.yaml"
    bad.write_text("failures: [unclosed\n")
    results = _write(tmp_path / "port.jsonl", {"implementation": PORT, "version": "0.1.0", "expectations": str(bad)},
                     [_record(c, PORT, "0.1.0", "passed") for c in spec.cases])
    write_site(tmp_path / "site", spec, [(load_digest(results), "port.jsonl")])
    page = (tmp_path / "site" / "implementation" / "example-python-port-0.1.0.html").read_text()
    assert f"<code>{bad} (not read: while parsing a flow sequence)</code>" in page


def test_a_release_change_of_a_pseudo_tool_links_to_its_cases_tool_page():
    """A change told under a step's pseudo-tool (`descriptions`, Mastra Code's `view`) links to the
    tool page of its case's family, which exists, never to tool/descriptions.html, which does not."""
    from collections import Counter

    from wsconf.releases.changelog import Change, Line
    from wsconf.reports.site import release_page
    spec = load_spec()
    case = next(c for c in spec.cases if c.tool == "descriptions")
    change = Change("1.40.0", "1.33.0", "descriptions", "failed", "matches", "`value.size` changed",
                    [case.id], Counter({case.claims[0]: 1}) if case.claims else Counter())
    pages = release_page.ToolPages(spec.cases)
    shown = release_page.line_html(Line([change], "change-1"), 1, pages)
    assert f'<a href="../tool/{case.families[0]}.html">descriptions</a>' in shown
    unknown = Change("1.40.0", "1.33.0", "nowhere", "failed", "matches", "x", ["no.such.case"])
    assert "<b>nowhere</b>" in release_page.line_html(Line([unknown], "change-2"), 1, pages)
