"""The site's entry pages: the index (the implementations and the tools side by side), every case,
every claim with the errata, and the search (search.html over search-cases.js and search-claims.js; without JavaScript it
points to the lists, which a browser's find searches as well)."""
from __future__ import annotations

import json
from collections import Counter

from ...results.records import by_tool
from .compat import FAILING, PASSING
from .layout import OUTCOME, case_url, claim_url, esc, link, page, release_url, tool_url

ERRATA = ("contradicted", "imprecise")


def _tally(counts: Counter) -> tuple[str, str]:
    """A tool's cell for one implementation: passed / applying, coloured by the worst."""
    applies = sum(n for o, n in counts.items() if o not in ("not_applicable", "absent", "unsupported"))
    passing = sum(counts[o] for o in PASSING)
    failing = sum(counts[o] for o in FAILING)
    css = "bad" if failing else ("na" if not applies else ("ok" if passing == applies else "part"))
    return css, f"{passing}/{applies}" + (f" · {failing} failing" if failing else "") + (
        f" · {counts['unsupported']} unsupported" if counts["unsupported"] else "")


def index(spec, implementations: list, families: list[str], releases: dict, changes_of: dict) -> str:
    body = ["<p>The executable specification of the Mastra workspace tools as @mastra/core 1.71.0 ships them: "
            f"{len(spec.cases)} cases, each citing the documentation statement (claim) it checks, run against "
            "each implementation below. Every case has a page with its setup, its calls and their exact expected "
            "output, and what each implementation answered.</p>",
            '<form action="search.html" role="search"><input name="q" type="search" placeholder="search cases, claims, errata" '
            'aria-label="search" size="40"> <button>search</button></form>']
    body.append("<h2 id=implementations>Implementations</h2>")
    if not implementations:
        body.append("<p>No results were given: the pages show the cases and claims alone.</p>")
    else:
        body.append('<table><tr><th>implementation</th><th>results</th>' + "".join(
            f'<th class="num">{esc(OUTCOME[o][0])}</th>' for o in ("passed", "failed", "xfail", "unsupported",
                                                                     "not_applicable")) + "</tr>")
        for impl in implementations:
            counts = Counter(impl.outcome(c) for c in spec.cases)
            body.append(f"<tr><td>{link(impl.url, impl.label, 0)} <span class=tag>{esc(impl.subtitle)}</span></td>"
                        f"<td class=tag>{esc(impl.source)}</td>"
                        + "".join(f'<td class="num">{counts[o]}</td>' for o in ("passed", "failed", "xfail",
                                                                                "unsupported", "not_applicable"))
                        + "</tr>")
        body.append("</table>")
    body.append("<h2 id=tools>Tools</h2><p>Each cell: cases passing / cases that apply (a case counts under every tool "
                "it calls); the tool's page has the table by behaviour.</p>")
    per_impl = [by_tool({"tool": c.tool, "tools": c.families, "outcome": i.outcome(c)} for c in spec.cases)
                for i in implementations]
    body.append('<div class="scroll"><table><tr><th>tool</th><th class="num">cases</th>'
                + "".join(f'<th>{esc(i.label)}</th>' for i in implementations) + "</tr>")
    sizes = Counter(f for c in spec.cases for f in c.families)
    for family in families:
        cells = []
        for counts in per_impl:
            css, text = _tally(counts.get(family, Counter()))
            cells.append(f'<td class="{css}">{esc(text)}</td>')
        body.append(f"<tr><td>{link(tool_url(family), family, 0)}</td><td class=num>{sizes[family]}</td>"
                    + "".join(cells) + "</tr>")
    body.append("</table></div>")
    if releases:
        newest, oldest = list(releases)[-1], list(releases)[0]
        total = sum(len(lines) for lines in changes_of.values())
        body.append(f"<h2 id=releases>Across @mastra/core releases</h2><p>The release matrix ran {len(releases)} "
                    f"releases, {link(release_url(oldest), oldest, 0)} to {link(release_url(newest), newest, 0)}: "
                    f"{total} behaviour changes, listed per release in {link('changes.html', 'behaviour changes', 0)}; "
                    "each case's page has its history.</p>")
    return page("wsconf: the Mastra workspace tools, case by case", body, 0)


def cases_list(spec) -> str:
    body = [f'<p>{len(spec.cases)} cases. <input data-scope="caselist" placeholder="filter by id, title, claim or tool" '
            'aria-label="filter" size="40"> <span id="caselist-count"></span></p>',
            '<table id="caselist"><tr><th>case</th><th>tools</th><th>title</th></tr>']
    for case in spec.cases:
        body.append(f'<tr class=row><td>{link(case_url(case.id), case.id, 0)}</td>'
                    f"<td>{esc(', '.join(case.families))}</td><td>{esc(case.title)}</td></tr>")
    body.append("</table>")
    return page("Every case", body, 0)


def claims_list(spec, cases_of: dict[str, list]) -> str:
    errata = [c for c in spec.claims.values() if c.status in ERRATA]
    body = [f"<h2 id=errata>Errata ({len(errata)})</h2><p>Claims the pages get wrong (contradicted) or leave vague "
            "(imprecise), with what @mastra/core 1.71.0 does; the cases pin what it does.</p><ul>"]
    body += [f'<li>{link(claim_url(c.id), c.id, 0)} <span class="badge {esc(c.status)}">{esc(c.status)}</span> '
             f"{esc(c.observed or c.reason or '')}</li>" for c in errata]
    body += ["</ul><h2 id=claims>Every claim</h2>",
             f'<p><input data-scope="claimlist" placeholder="filter claims" aria-label="filter" size="40"> '
             '<span id="claimlist-count"></span></p><ul id="claimlist">']
    for claim in spec.claims.values():
        n = len(cases_of.get(claim.id, []))
        body.append(f'<li class=row>{link(claim_url(claim.id), claim.id, 0)} '
                    f'<span class="quote">“{esc(claim.quote)}”</span> <span class=tag>{n} case(s)</span></li>')
    body.append("</ul>")
    return page("Claims and errata", body, 0)


def search_page() -> str:
    body = ['<p><input id="q" type="search" placeholder="words from ids, titles, quotes, errata" aria-label="search" '
            'size="50" autofocus> <span id="results-count"></span></p><ol id="results"></ol>',
            '<noscript><p>The search runs in your browser and needs JavaScript. Without it, every '
            '<a href="cases.html">case</a> and every <a href="claims.html">claim and erratum</a> is on one page '
            "each, which your browser's find searches.</p></noscript>",
            '<script src="search-cases.js"></script><script src="search-claims.js"></script>']
    return page("Search", body, 0)


def search_index(spec) -> dict[str, str]:
    """[kind, id, title, more words] for every case, claim and erratum, as two scripts (a page opened
    from file:// cannot fetch JSON beside it; two keep each file small)."""
    cases = [["case", c.id, c.title, " ".join(c.claims)] for c in spec.cases]
    claims = [["erratum" if c.status in ERRATA else "claim", c.id, c.quote[:120],
               " ".join([c.quote[120:], c.status or "", c.observed or c.reason or ""])] for c in spec.claims.values()]

    def script(name: str, entries: list) -> str:
        return f"window.{name}=" + json.dumps(entries, ensure_ascii=False, separators=(",", ":")) + ";\n"
    return {"search-cases.js": script("WSCONF_CASES", cases), "search-claims.js": script("WSCONF_CLAIMS", claims)}
