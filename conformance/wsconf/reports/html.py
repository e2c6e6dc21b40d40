"""A static HTML page from result files: a matrix of tools by implementation, and every case that
did not pass with its claims, expected and actual output, and a diff."""
from __future__ import annotations

import html
import json
from collections import Counter

from ..judge.harm import RANK
from ..judge.render import describe, diff
from ..results.records import by_tool, in_expect_terms
from ..session.findings import as_json, summary_line
from ..spec.loader import load_spec

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}.ok{background:#e6f4ea}.bad{background:#fde7e9}.x{background:#fff4d6}
.na{background:#eef1f5;color:#678}
pre{background:#f6f8fa;padding:.6em;overflow:auto;white-space:pre-wrap}details{margin:.4em 0}
summary{cursor:pointer}.quote{color:#555;font-style:italic}.tag{font-size:12px;color:#666}
"""


def _cell(c: Counter) -> str:
    total = sum(c.values()) - c["not_applicable"]
    bad = c["failed"] + c["error"] + c["xpass"]
    ran = total - c["unsupported"]
    cls = "bad" if bad else ("x" if c["xfail"] else ("ok" if ran else "na"))  # nothing ran: nothing to be green about
    parts = [f"{c['passed']}/{total}"]
    if bad:
        parts.append(f"{bad} failed")
    if c["xfail"]:
        parts.append(f"{c['xfail']} xfail")
    if c["unsupported"]:
        parts.append(f"{c['unsupported']} unsupported")
    if c["not_applicable"]:
        parts.append(f"{c['not_applicable']} not applicable")
    return f'<td class="{cls}">{" · ".join(parts)}</td>'


def render(runs: list[tuple[str, list[dict]]]) -> str:
    spec = load_spec()
    counts = [by_tool(records) for _, records in runs]  # a case counts under every tool it calls
    tools = sorted({tool for per_run in counts for tool in per_run if tool != "all"})
    out = ["<!doctype html><meta charset=utf-8><title>wsconf conformance report</title>",
           f"<style>{STYLE}</style><h1>wsconf conformance report</h1>",
           "<p>Each cell: passed / cases, then failures, expected failures (xfail) and unsupported cases; a case "
           "counts under every tool it calls.</p>",
           "<table><tr><th>tool</th>" + "".join(f"<th>{html.escape(label)}</th>" for label, _ in runs) + "</tr>"]
    for tool in tools + ["all"]:
        row = [f"<td>{html.escape(tool)}</td>"]
        for per_run in counts:
            row.append(_cell(per_run.get(tool, Counter())))
        out.append("<tr>" + "".join(row) + "</tr>")
    out.append("</table>")
    for label, records in runs:
        problems = [r for r in records if r["outcome"] not in ("passed", "unsupported", "not_applicable")]
        out.append(f"<h2>{html.escape(label)}: {len(problems)} case(s) not passing</h2>")
        out.append(_findings(records, spec))
        for r in problems:
            out.append(_case(r, spec))
    return "\n".join(out)


def _findings(records: list[dict], spec) -> str:
    """The groups of findings.py, worst first: harm, what, how many, the shortest case."""
    report = as_json(records, None, spec)
    if not report["groups"]:
        return ""
    rows = "".join(
        f'<tr><td class="{"bad" if RANK.get(g["harm"], 99) <= RANK["wrong_acceptance"] else "x"}">'
        f'{html.escape(g["harm"].replace("_", " "))}</td><td style="text-align:left">{html.escape(g["title"])}</td>'
        f'<td>{g["count"]}</td><td style="text-align:left"><code>{html.escape(g["reproduction"]["case"])}</code></td></tr>'
        for g in report["groups"])
    return (f"<p>{html.escape(summary_line(report))}; the groups, worst first:</p>"
            "<table><tr><th>harm</th><th>group</th><th>cases</th><th>shortest case</th></tr>" + rows + "</table>")


def _case(record: dict, spec) -> str:
    case = spec.cases_by_id.get(record["id"])
    title = html.escape(case.title) if case else ""
    claims = "".join(
        f'<li><code>{html.escape(cid)}</code> <span class="quote">“{html.escape(spec.claims[cid].quote)}”</span></li>'
        for cid in record.get("claims", []) if cid in spec.claims)
    body = [f"<details><summary><b>{html.escape(record['id'])}</b> [{record['outcome']}] {title}</summary>",
            f"<ul>{claims}</ul>"]
    if record.get("message"):
        body.append(f"<pre>{html.escape(record['message'])}</pre>")
    for step in record.get("steps", []):
        expected = step.get("expected")
        actual = in_expect_terms(expected, step.get("actual"))
        body.append(f"<p>step <code>{html.escape(step['call'])}</code> with "
                    f"<code>{html.escape(json.dumps(step.get('args'), ensure_ascii=False))}</code></p>")
        body.append(f"<p>expected</p><pre>{html.escape(describe(expected))}</pre>")
        body.append(f"<p>actual</p><pre>{html.escape(describe(actual))}</pre>")
        body.append(f"<p>diff</p><pre>{html.escape(diff(expected, actual))}</pre>")
    body.append("</details>")
    return "\n".join(body)
