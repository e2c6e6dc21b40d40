"""An implementation's page (implementation/<slug>.html): what its run judged (the header of
`wsconf run`: capabilities, tools, dependencies, confinement), its outcomes by tool, its findings
ranked by harm (session/findings.py), and its known failures with their reasons."""
from __future__ import annotations

from collections import defaultdict

from ...judge.harm import TITLES
from ...results.records import by_tool
from ...session.findings import NOT_PASSING, as_json, summary_line
from ...session.header import header_lines
from .implementations import Implementation
from .layout import OUTCOME, case_url, esc, link, page, tool_url

DEPTH = 1
GROUP_CASES = 30  # case links shown per findings group


def _header(impl: Implementation) -> str:
    try:
        return "\n".join(header_lines(impl.run))
    except KeyError as missing:  # results of an older wsconf, or of a matrix release: what the run line has
        lines = [f"{key}: {value}" for key, value in sorted(impl.run.items()) if key not in ("capabilities",)]
        lines.append(f"capabilities: {', '.join(impl.run.get('capabilities') or [])}")
        return f"(the run line has no {missing})\n" + "\n".join(lines)


def _by_tool_table(impl: Implementation, cases: list) -> str:
    per_tool = by_tool({"tool": c.tool, "tools": c.families, "outcome": impl.outcome(c)} for c in cases)
    shown = ["passed", "failed", "error", "xfail", "xpass", "unsupported", "not_applicable", "absent"]
    rows = ['<table><tr><th>tool</th>' + "".join(f'<th class="num">{esc(OUTCOME[o][0])}</th>' for o in shown) + "</tr>"]
    for family, counts in per_tool.items():
        name = link(tool_url(family), family, DEPTH) if family != "all" else "<b>all</b>"
        rows.append(f"<tr><td>{name}</td>" + "".join(f'<td class="num">{counts[o] or ""}</td>' for o in shown) + "</tr>")
    return "".join(rows) + "</table>"


def _findings(impl: Implementation, cases: list, spec) -> list[str]:
    failing = [impl.digest.record(c.id) for c in cases if impl.outcome(c) in NOT_PASSING]
    report = as_json([r for r in failing if r], impl.run, spec)
    if not report["groups"]:
        return ["<p>No findings: every case that ran passed.</p>"]
    out = [f"<p>{esc(summary_line(report))}. Each group is one root cause (the same harm, call and shape of "
           "difference), worst first; <code>wsconf findings RESULTS</code> prints them with reproductions.</p>",
           '<table><tr><th class="num">#</th><th>harm</th><th>group</th><th class="num">cases</th><th>shortest case</th></tr>']
    for n, group in enumerate(report["groups"], 1):
        example = group["reproduction"]["case"]
        out.append(f'<tr><td class="num">{n}</td><td>{esc(TITLES.get(group["harm"], group["harm"]))}</td>'
                   f'<td><code>{esc(group["title"])}</code><details><summary>its cases</summary>'
                   + ", ".join(link(case_url(c), c, DEPTH) for c in group["cases"][:GROUP_CASES])
                   + (f" and {len(group['cases']) - GROUP_CASES} more" if len(group["cases"]) > GROUP_CASES else "")
                   + f'</details></td><td class="num">{group["count"]}</td>'
                   f'<td><a href="../{case_url(example)}#{esc(impl.slug)}">{esc(example)}</a></td></tr>')
    out.append("</table>")
    return out


def _expectations(impl: Implementation) -> list[str]:
    if not impl.expectations_file:
        return ["<p>No expectations file: every failure counts.</p>"]
    by_reason: dict[str, list[str]] = defaultdict(list)
    for case_id, reason in impl.expectations.items():
        by_reason[reason].append(case_id)
    out = [f"<p>{len(impl.expectations)} known failure(s) in <code>{esc(impl.expectations_file)}</code>, "
           f"{len(by_reason)} reason(s), the most cases first.</p><ul>"]
    for reason, ids in sorted(by_reason.items(), key=lambda item: (-len(item[1]), item[0])):
        out.append(f"<li>{esc(reason)}<br><span class=tag>{len(ids)} case(s): "
                   + ", ".join(link(case_url(c), c, DEPTH) for c in sorted(ids)) + "</span></li>")
    out.append("</ul>")
    return out


def render(impl: Implementation, cases: list, spec) -> str:
    body = [f'<p class="tag">{esc(impl.subtitle)} · results: <code>{esc(impl.source)}</code></p>',
            "<h2>What its run judged</h2>", f"<pre>{esc(_header(impl))}</pre>",
            "<h2>By tool</h2><p>A case counts under every tool it calls.</p>", _by_tool_table(impl, cases),
            "<h2 id=findings>Findings, worst first</h2>", *_findings(impl, cases, spec),
            "<h2 id=expectations>Known failures and why</h2>", *_expectations(impl)]
    return page(impl.label, body, DEPTH)
