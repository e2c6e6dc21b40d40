"""The run's summary by tool, printed after the last case: the implementation's own tools (every
tool with --all-tools), counted the one way "by tool" is counted everywhere (results.records.by_tool:
a case counts under every tool it calls), and per tool what its unsupported cases lack."""
from __future__ import annotations

from collections import Counter

from ..judge.runner import ERROR, FAILED, NOT_APPLICABLE, PASSED, UNSUPPORTED
from ..results.records import by_tool, families

XFAIL, XPASS = "xfail", "xpass"
COLUMNS = (PASSED, FAILED, XFAIL, XPASS, UNSUPPORTED, NOT_APPLICABLE, ERROR)
SHOWN_REASONS = 5  # the most frequent things a tool's unsupported cases lack


def summary_lines(records: list[dict], implemented: list[str] | None, all_tools: bool) -> list[str]:
    """implemented: the tool families the implementation has (None: all), as the run's header names them."""
    counts = by_tool(records)
    tools = [t for t in counts if t != "all"]
    shown = tools if all_tools or implemented is None else [t for t in tools if t in implemented]
    out = [f"{'tool':<22}{'cases':>7}" + "".join(f"{c.replace('_', ' '):>15}" for c in COLUMNS)]
    for tool in shown + ["all"]:
        row = counts[tool]
        out.append(f"{tool:<22}{sum(row.values()):>7}" + "".join(f"{row[c]:>15}" for c in COLUMNS))
    hidden = [t for t in tools if t not in shown]
    if hidden:
        out.append(f"({len(hidden)} tools the implementation does not have are left out of the table; "
                   "--all-tools shows them)")
    reasons = [line for tool in shown if (line := _unsupported_line(tool, records))]
    if reasons:
        out += ["", "unsupported cases, by what they need that the implementation lacks:"] + reasons
    return out


def _unsupported_line(tool: str, records: list[dict]) -> str | None:
    lacks, cases = Counter(), 0
    for record in records:
        if record["outcome"] == UNSUPPORTED and tool in families(record):
            cases += 1
            missing = record.get("missing") or {}
            lacks.update(f"need {c}" for c in missing.get("capabilities", []))
            lacks.update(f"call {t}" for t in missing.get("tools", []))
    if not cases:
        return None
    top = ", ".join(f"{n} {why}" for why, n in lacks.most_common(SHOWN_REASONS))
    more = " ..." if len(lacks) > SHOWN_REASONS else ""
    return f"  {tool}: {cases} unsupported: {top}{more}"
