"""The report site (`wsconf site`, `make matrix`): the version matrix (releases x tools), each case's
history across releases with its failure diffs, the claims with their cases and the errata, filter
and search; static pages."""
from __future__ import annotations

import html
import json
from collections import Counter

from ..judge.render import diff
from ..results.records import by_tool, in_expect_terms
from .html import STYLE

SITE_STYLE = STYLE + """
nav a{margin-right:1em}td.na{background:#eef1f5;color:#678}td.err{background:#f9d2d6}
table.matrix td,table.matrix th{font-size:12px;padding:.15em .35em}input#q{width:24em;padding:.3em}
.hidden{display:none}.badge{font-size:11px;padding:0 .4em;border-radius:3px;background:#eee}
"""

FILTER_JS = """
function wsconfFilter(){const q=document.getElementById('q').value.toLowerCase();
const o=document.getElementById('outcome');const want=o?o.value:'';
for(const row of document.querySelectorAll('[data-search]')){
const hit=row.dataset.search.includes(q)&&(!want||(row.dataset.outcomes||'').split(' ').includes(want));
row.classList.toggle('hidden',!hit)}
const n=document.querySelectorAll('[data-search]:not(.hidden)').length;
const c=document.getElementById('count');if(c)c.textContent=n+' shown'}
document.addEventListener('DOMContentLoaded',()=>{if(document.getElementById('q'))wsconfFilter();
document.body.dataset.ready='1'});
"""

_CLASS = {"passed": "ok", "not_applicable": "na", "unsupported": "na", "xfail": "x", "failed": "bad",
          "error": "err", "xpass": "bad"}


def _page(title: str, body: list[str], depth: int = 0) -> str:
    up = "../" * depth
    nav = (f'<nav><a href="{up}index.html">matrix</a><a href="{up}cases.html">cases</a>'
           f'<a href="{up}claims.html">claims and errata</a><a href="{up}changes.html">behaviour changes</a></nav>')
    return (f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title><style>{SITE_STYLE}</style>"
            f"<script>{FILTER_JS}</script>{nav}<h1>{html.escape(title)}</h1>\n" + "\n".join(body) + "\n")


def _esc(text) -> str:
    return html.escape(str(text).encode("utf-8", "backslashreplace").decode("utf-8"))


def site_outcome(case, record: dict | None, version: str) -> str:
    """What `wsconf run --adapter mastra@<version>` says of the case, from the matrix's raw result."""
    from ..spec.versions import satisfies
    if record is None:
        return "absent"
    if case is not None and case.versions and not satisfies(version, case.versions):
        return "not_applicable"
    return record["outcome"]


def write_site(out_dir, matrix: dict, spec, not_run: list[str], changes_md: str | None = None) -> list[str]:
    """A static site: the version matrix (releases x tools), each case's history across releases with
    its failure diffs, the claims with their cases and the errata, filter and search. Returns the pages."""
    from pathlib import Path

    from ..spec.versions import key
    out = Path(out_dir)
    (out / "case").mkdir(parents=True, exist_ok=True)
    releases = sorted(matrix, key=key, reverse=True)
    cases = spec.cases
    families = sorted({f for c in cases for f in c.families})
    written = []
    outcome = {(c.id, v): site_outcome(c, matrix[v].records.get(c.id), v) for c in cases for v in releases}

    def write(rel: str, text: str):
        path = out / rel
        path.write_text(text.encode("utf-8", "backslashreplace").decode("utf-8"), encoding="utf-8")
        written.append(rel)

    # the matrix
    body = ["<p>Each cell: cases that behave as pinned / cases that apply to the release, for one tool "
            "(a case counts under every tool it calls); cases outside their <code>versions</code> are not "
            "applicable. Red: a case that applies and does not behave as pinned.</p>"]
    if not_run:
        body.append(f"<p>Releases not run: {', '.join(_esc(v) for v in not_run)}.</p>")
    body.append('<table class="matrix" id="matrix"><tr><th>release</th>' +
                "".join(f"<th>{_esc(f)}</th>" for f in families) + "<th>all</th></tr>")
    for version in releases:
        row = [f'<td><a href="#r{_esc(version)}">{_esc(version)}</a></td>']
        per_tool = by_tool({"tool": c.tool, "tools": c.families, "outcome": outcome[c.id, version]} for c in cases)
        for family in families + ["all"]:
            counts = per_tool.get(family, Counter())
            applies = sum(n for o, n in counts.items() if o not in ("not_applicable", "absent", "unsupported"))
            bad = counts["failed"] + counts["error"] + counts["xpass"]
            cls = "bad" if bad else ("na" if not applies else "ok")
            title = ", ".join(f"{n} {o}" for o, n in sorted(counts.items()))
            row.append(f'<td class="{cls}" title="{_esc(title)}">{counts["passed"]}/{applies}</td>')
        body.append(f'<tr data-release="{_esc(version)}">' + "".join(row) + "</tr>")
    body.append("</table>")
    for version in releases:
        results = matrix[version]
        deps = ", ".join(f"{k} {v}" for k, v in sorted(((results.run or {}).get("dependencies") or {}).items()))
        bad = [c for c in cases if outcome[c.id, version] in ("failed", "error", "xpass")]
        body.append(f'<h2 id="r{_esc(version)}">{_esc(results.label)}</h2><p class="tag">{_esc(deps)}</p>')
        body.append(f"<p>{len(bad)} case(s) that apply and do not behave as pinned"
                    + (": " + ", ".join(f'<a href="case/{_esc(c.id)}.html">{_esc(c.id)}</a>' for c in bad) if bad else "")
                    + "</p>")
    write("index.html", _page("wsconf: the suite across @mastra/core releases", body))

    # the case list, with filter and search
    body = ['<p><input id="q" placeholder="search ids, titles, claims" oninput="wsconfFilter()"> '
            '<select id="outcome" onchange="wsconfFilter()"><option value="">any outcome</option>'
            + "".join(f'<option value="{o}">{o.replace("_", " ")} somewhere</option>'
                      for o in ("failed", "error", "not_applicable", "unsupported")) +
            '</select> <span id="count"></span></p><table id="cases"><tr><th>case</th><th>tools</th><th>versions</th><th>title</th></tr>']
    for case in cases:
        outcomes = {outcome[case.id, v] for v in releases}
        search = " ".join([case.id, case.title, *case.claims, *case.families]).lower()
        body.append(f'<tr data-search="{_esc(search)}" data-outcomes="{_esc(" ".join(sorted(outcomes)))}">'
                    f'<td><a href="case/{_esc(case.id)}.html">{_esc(case.id)}</a></td><td>{_esc(", ".join(case.families))}</td>'
                    f'<td>{_esc(case.versions or "all")}</td><td>{_esc(case.title)}</td></tr>')
    body.append("</table>")
    write("cases.html", _page("cases", body))

    # one page per case: its claims, its range and its history across releases, with the diffs
    for case in cases:
        claims = "".join(
            f'<li><a href="../claims.html#{_esc(cid)}"><code>{_esc(cid)}</code></a> '
            f'<span class="quote">“{_esc(spec.claims[cid].quote)}”</span>'
            + (f' <span class="badge">{_esc(spec.claims[cid].status)}</span>' if spec.claims[cid].status else "")
            + "</li>" for cid in case.claims if cid in spec.claims)
        body = [f"<p>{_esc(case.title)}</p><p><code>{_esc(case.file)}:{case.line}</code> · versions: "
                f"<b>{_esc(case.versions or 'every release')}</b></p><ul>{claims}</ul>",
                '<table id="history"><tr><th>release</th><th>outcome</th><th>message</th></tr>']
        distinct: dict[str, tuple[list[str], dict]] = {}
        for version in releases:
            record = matrix[version].records.get(case.id)
            shown = outcome[case.id, version]
            message = (record or {}).get("message", "").split("\n")[0]
            body.append(f'<tr><td>{_esc(version)}</td><td class="{_CLASS.get(shown, "")}">{_esc(shown.replace("_", " "))}'
                        f'</td><td>{_esc(message[:200])}</td></tr>')
            if record and record["outcome"] in ("failed", "error"):
                fingerprint = json.dumps([s.get("actual") for s in record.get("steps") or []], sort_keys=True,
                                         default=str) + record["message"].split("\n")[0]
                distinct.setdefault(fingerprint, ([], record))[0].append(version)
        body.append("</table>")
        for versions_seen, record in distinct.values():
            body.append(f"<details><summary>{_esc(record['outcome'])} on {_esc(', '.join(versions_seen))}</summary>")
            if record.get("message"):
                body.append(f"<pre>{_esc(record['message'][:6000])}</pre>")
            for step in record.get("steps") or []:
                expected, actual = step.get("expected"), step.get("actual")
                if expected is None or actual is None:
                    continue
                actual = in_expect_terms(expected, actual)
                body.append(f"<p>step <code>{_esc(step.get('call', step.get('id')))}</code>: diff (expected → actual)</p>"
                            f"<pre>{_esc(diff(expected, actual)[:6000])}</pre>")
            body.append("</details>")
        write(f"case/{case.id}.html", _page(case.id, body, depth=1))

    # claims with their cases, and the errata
    by_claim: dict[str, list] = {}
    for case in cases:
        for cid in case.claims:
            by_claim.setdefault(cid, []).append(case)
    errata = [c for c in spec.claims.values() if c.status in ("contradicted", "imprecise")]
    body = ['<p><input id="q" placeholder="search claims" oninput="wsconfFilter()"> <span id="count"></span></p>',
            f"<h2>Errata ({len(errata)})</h2><p>Claims the pages get wrong or leave vague, with what 1.71.0 does.</p><ul>"]
    body += [f'<li><a href="#{_esc(c.id)}"><code>{_esc(c.id)}</code></a> <span class="badge">{_esc(c.status)}</span> '
             f"{_esc(c.observed or '')}</li>" for c in errata]
    body.append("</ul><h2>Claims</h2>")
    for claim in spec.claims.values():
        linked = by_claim.get(claim.id, [])
        search = " ".join([claim.id, claim.quote, claim.section]).lower()
        body.append(f'<div id="{_esc(claim.id)}" data-search="{_esc(search)}"><p><code>{_esc(claim.id)}</code> '
                    f'({_esc(claim.section)}) <span class="quote">“{_esc(claim.quote)}”</span>'
                    + (f' <span class="badge">{_esc(claim.status)}</span> {_esc(claim.observed or claim.reason or "")}'
                       if claim.status else "")
                    + "</p><p>" + (", ".join(f'<a href="case/{_esc(c.id)}.html">{_esc(c.id)}</a>' for c in linked)
                                   or "no case") + "</p></div>")
    write("claims.html", _page("claims and errata", body))

    # the behaviour changes (BEHAVIOUR-CHANGES.md, shown as text)
    text = changes_md if changes_md is not None else "(no changelog given)"
    write("changes.html", _page("behaviour changes", [f"<pre>{_esc(text)}</pre>"]))
    return written
