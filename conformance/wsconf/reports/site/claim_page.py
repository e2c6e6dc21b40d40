"""A claim's page (claim/<id>.html, its permanent URL): the statement as the pages (or the upstream's
tests) make it, whether it holds in 1.71.0 (the errata: what is observed instead), and the cases
that check it with each implementation's outcome."""
from __future__ import annotations

from .layout import case_url, esc, link, outcome_span, page, tool_url

DEPTH = 1
STATUS = {"contradicted": "The pages say this; @mastra/core 1.71.0 does otherwise.",
          "imprecise": "The pages say this, but leave out what 1.71.0 really does.",
          "uncheckable": "This cannot be checked from outside the tools."}


def render(claim, cases: list, implementations: list) -> str:
    families = sorted({f for c in cases for f in c.families})
    body = [f'<p class="quote">“{esc(claim.quote)}”</p>',
            f'<p class="tag">{esc(claim.page)}{" · " + esc(claim.section) if claim.section else ""}'
            + (f" · tools: {', '.join(link(tool_url(f), f, DEPTH) for f in families)}" if families else "") + "</p>"]
    if claim.status:
        body.append(f'<p><span class="badge {esc(claim.status)}">{esc(claim.status)}</span> '
                    f"{esc(STATUS.get(claim.status, ''))}</p>")
        if claim.observed:
            body.append(f"<p>Observed: {esc(claim.observed)}</p>")
        if claim.reason:
            body.append(f"<p>{esc(claim.reason)}</p>")
    body.append(f"<h2>Cases ({len(cases)})</h2>")
    if not cases:
        body.append("<p>No case checks it.</p>")
    else:
        body.append('<div class="scroll"><table><tr><th>case</th>'
                    + "".join(f"<th>{link(i.url, i.label, DEPTH)}</th>" for i in implementations) + "</tr>")
        for case in cases:
            cells = []
            for impl in implementations:
                entry = impl.entry(case)
                cells.append(f'<td><a href="../{case_url(case.id)}#{esc(impl.slug)}">'
                             f"{outcome_span(impl.outcome(case), entry.harm if entry else None)}</a></td>")
            body.append(f"<tr><td>{link(case_url(case.id), case.id, DEPTH)}<br><span class=tag>{esc(case.title)}</span></td>"
                        + "".join(cells) + "</tr>")
        body.append("</table></div>")
    return page(claim.id, body, DEPTH, heading=f"Claim: {claim.id}")
