"""A tool's page (tool/<family>.html): what the pages claim about it, its errata (where 1.71.0
differs from the pages), the compatibility table (its behaviours down, the implementations across),
and every case grouped by the claim it checks."""
from __future__ import annotations

from .compat import LEGEND, cell, cell_html
from .layout import case_url, claim_url, esc, link, page

DEPTH = 1
ERRATA = ("contradicted", "imprecise")


def tool_claims(family: str, cases: list, spec) -> list[tuple[object, list]]:
    """The claims the tool's cases check, in claims.yaml's order, each with those cases."""
    by_claim: dict[str, list] = {}
    for case in cases:
        for cid in case.claims:
            by_claim.setdefault(cid, []).append(case)
    claims = [claim for claim in spec.claims.values() if claim.id in by_claim]
    # the documentation pages' claims first, then those of the upstream's own tests (packages/...)
    return [(claim, by_claim[claim.id]) for claim in sorted(claims, key=lambda c: c.page.startswith("packages/"))]


def _claim_cell(claim) -> str:
    status = f' <span class="badge {esc(claim.status)}">{esc(claim.status)}</span>' if claim.status else ""
    return (f'<td>{link(claim_url(claim.id), claim.id, DEPTH)}{status}<br>'
            f'<span class="quote">“{esc(claim.quote[:220])}{"…" if len(claim.quote) > 220 else ""}”</span></td>')


def render(family: str, cases: list, spec, implementations: list) -> str:
    claims = tool_claims(family, cases, spec)
    errata = [(c, cs) for c, cs in claims if c.status in ERRATA]
    pages = sorted({c.page for c, _ in claims if not c.page.startswith("packages/")})
    body = [f"<p>{len(cases)} case(s) call <code>{esc(family)}</code>; they check {len(claims)} claim(s), "
            f"{len(errata)} of which the pages get wrong or leave vague (errata). Claims come from the documentation "
            f"pages ({esc(', '.join(pages)) or 'none'}) and from the upstream's own tests.</p>"]
    if implementations:
        body += ["<h2 id=compat>Compatibility</h2>", LEGEND,
                 '<div class="scroll"><table class="compat"><tr><th>behaviour (claim)</th>'
                 + "".join(f'<th class="impl">{link(i.url, i.label, DEPTH)}<br><span class="tag">{esc(i.subtitle)}</span></th>'
                           for i in implementations) + "</tr>"]
        for claim, claim_cases in claims:
            body.append(f'<tr>{_claim_cell(claim)}'
                        + "".join(cell_html(cell(claim_cases, i), i, DEPTH) for i in implementations) + "</tr>")
        body.append("</table></div>")
    body.append(f"<h2 id=errata>Errata ({len(errata)})</h2>")
    if errata:
        body.append("<p>Where @mastra/core 1.71.0 does not do what the pages say, or does more precisely than they say; "
                    "the cases pin what it does.</p><ul>")
        body += [f'<li>{link(claim_url(c.id), c.id, DEPTH)} <span class="badge {esc(c.status)}">{esc(c.status)}</span> '
                 f'<span class="quote">“{esc(c.quote)}”</span><br>{esc(c.observed or c.reason or "")}</li>' for c, _ in errata]
        body.append("</ul>")
    else:
        body.append("<p>None: every claim about this tool holds as written.</p>")
    body += ["<h2 id=claims>Claims and their cases</h2>",
             f'<p><input data-scope="claimlist" placeholder="filter claims and cases" aria-label="filter"> '
             f'<span id="claimlist-count"></span></p><div id="claimlist">']
    for claim, claim_cases in claims:
        body.append(f'<div class=row><h3 id="{esc(claim.id)}">{link(claim_url(claim.id), claim.id, DEPTH)}</h3>'
                    f'<p class="quote">“{esc(claim.quote)}”</p><ul>'
                    + "".join(f"<li>{link(case_url(c.id), c.id, DEPTH)}: {esc(c.title)}</li>" for c in claim_cases)
                    + "</ul></div>")
    body.append("</div>")
    return page(f"{family}", body, DEPTH, heading=f"Tool: {family}")
