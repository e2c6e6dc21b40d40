"""Findings: a run's failures as the bugs behind them, worst first.

Every case that did not pass (failed, error, and the known failures of the expectations file) is
put in the group of its worst divergence (judge/harm.py: the harm class, the call, the shape of the
difference with paths, numbers and times abstracted). Groups are ranked by harm, then by size;
each shows its shortest case as a reproduction (the `wsconf show` and `wsconf run` commands, the
step, expected against actual) and the claims it breaks. This is the report a maintainer reads
first: `wsconf findings RESULTS.jsonl`, the top of it at the end of `wsconf run`, and a section of
the HTML report.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from ..judge.harm import RANK, TITLES, anywhere, coarse
from ..judge.render import describe

NOT_PASSING = ("failed", "error", "xfail")
SHOWN = 1200  # characters of expected and actual shown for a group's example
SMALL = 3      # a group of fewer cases is widened (harm.coarse, then harm.anywhere)


@dataclass
class Group:
    signature: str
    harm: str
    cases: list[dict] = field(default_factory=list)  # the records

    @property
    def title(self) -> str:
        return self.signature.split(" | ", 1)[1] if " | " in self.signature else self.signature

    @property
    def example(self) -> dict:
        """The shortest case: fewest steps, then the shortest message, then by id."""
        return min(self.cases, key=lambda r: (len(r.get("steps") or []), len(r.get("message") or ""), r["id"]))


def groups(records: list[dict]) -> list[Group]:
    """The not-passing records grouped and ranked (worst harm first, then the biggest group): by their
    signature where it recurs, else by its coarse form (harm.coarse), so a difference whose exact
    shape is one case's own joins the others of its kind at the same call."""
    failing = [r for r in records if r.get("outcome") in NOT_PASSING
               and not r.get("fresh")]  # fresh cases: their own summary line
    key = {id(r): r.get("signature") or f"wrong_output | {r.get('tool')} | (judged before harm classes)"
           for r in failing}
    exact = {id(r) for r in failing if RANK.get(r.get("harm"), 99) <= RANK["false_success"]}
    for widen in (coarse, anywhere):  # a key few cases share is widened, a level at a time; never the
        seen = Counter(key.values())  # three worst harms: their groups keep their exact titles
        key = {i: widen(k) if seen[k] < SMALL and i not in exact else k for i, k in key.items()}
    found: dict[str, Group] = {}
    for record in failing:
        k = key[id(record)]
        found.setdefault(k, Group(k, record.get("harm") or "wrong_output")).cases.append(record)
    return sorted(found.values(), key=lambda g: (RANK.get(g.harm, len(RANK)), -len(g.cases), g.signature))


def _worst(record: dict) -> dict | None:
    divergences = record.get("divergences") or []
    return min(divergences, key=lambda d: RANK.get(d.get("harm"), len(RANK))) if divergences else None


def _step(record: dict, step_id: str | None) -> dict | None:
    return next((s for s in record.get("steps") or [] if s.get("id") == step_id), None)


def reproduction(group: Group, adapter: str | None) -> dict:
    record = group.example
    worst = _worst(record) or {}
    step = _step(record, worst.get("step"))
    out = {"case": record["id"], "show": f"wsconf show {record['id']}",
           "run": f"wsconf run --adapter '{adapter or '<adapter>'}' -k '{record['id']}'",
           "step": worst.get("step"), "call": worst.get("call"), "what": worst.get("text") or
           (record.get("message") or "").split("\n", 1)[0]}
    if worst.get("state"):
        out["expected"], out["actual"] = worst["state"].get("expected"), worst["state"].get("actual")
    elif step is not None:
        out["expected"], out["actual"] = step.get("expected"), step.get("actual")
    return out


def as_json(records: list[dict], run: dict | None, spec=None) -> dict:
    adapter = (run or {}).get("adapter")
    out = {"implementation": (run or {}).get("implementation"), "version": (run or {}).get("version"),
           "not_passing": sum(1 for r in records if r.get("outcome") in NOT_PASSING and not r.get("fresh")),
           "groups": []}
    for g in groups(records):
        claims = Counter(c for r in g.cases for c in r.get("claims") or [])
        out["groups"].append({
            "harm": g.harm, "title": g.title, "signature": g.signature, "count": len(g.cases),
            "cases": sorted(r["id"] for r in g.cases),
            "tools": sorted({t for r in g.cases for t in r.get("tools") or [r.get("tool")]}),
            "claims": [{"id": cid, "cases": n, **({"quote": spec.claims[cid].quote} if spec and cid in spec.claims
                                                  else {})} for cid, n in claims.most_common(3)],
            "reproduction": reproduction(g, adapter)})
    return out


def by_harm(report: dict) -> Counter:
    counts: Counter = Counter()
    for g in report["groups"]:
        counts[g["harm"]] += g["count"]
    return counts


def summary_line(report: dict) -> str:
    counts = by_harm(report)
    parts = ", ".join(f"{counts[h]} {h.replace('_', ' ')}" for h in sorted(counts, key=lambda h: RANK.get(h, 99)))
    return f"{report['not_passing']} case(s) not passing, in {len(report['groups'])} group(s): {parts}"


def _shown(value) -> str:
    text = describe(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + f"\n[... {len(text) - SHOWN:,} more characters]"


def as_markdown(report: dict, top: int | None = None) -> str:
    who = f"{report['implementation'] or '?'} {report['version'] or ''}".strip()
    lines = [f"# Findings: {who}", "", summary_line(report) + ".", ""]
    if not report["groups"]:
        return "\n".join(lines + ["Nothing to report: every case passed or was not applicable."]) + "\n"
    lines += ["| # | harm | group | cases |", "| ---: | --- | --- | ---: |"]
    shown = report["groups"][:top] if top else report["groups"]
    for i, g in enumerate(shown, 1):
        lines.append(f"| {i} | {g['harm'].replace('_', ' ')} | {_cell(g['title'])} | {g['count']} |")
    if top and len(report["groups"]) > top:
        lines.append(f"| | | ... {len(report['groups']) - top} more group(s) | |")
    for i, g in enumerate(shown, 1):
        rep = g["reproduction"]
        lines += ["", f"## {i}. {TITLES.get(g['harm'], g['harm'])}: {g['count']} case(s)", "",
                  f"`{g['title']}`", "", f"Tools: {', '.join(g['tools'])}. Cases: "
                  + ", ".join(f"`{c}`" for c in g["cases"][:8]) + (f" and {len(g['cases']) - 8} more" if len(g["cases"]) > 8
                                                                   else "") + "."]
        for claim in g["claims"]:
            lines.append(f"- breaks `{claim['id']}`" + (f": \"{claim['quote']}\"" if claim.get("quote") else ""))
        lines += ["", f"Shortest case `{rep['case']}`, step `{rep['step']}` ({rep['call']}): {rep['what']}", "",
                  f"    {rep['show']}", f"    {rep['run']}"]
        if "expected" in rep:
            lines += ["", "Expected:", "", "```", _shown(rep["expected"]), "```", "", "Actual:", "", "```",
                      _shown(rep["actual"]), "```"]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def terminal_lines(records: list[dict], run: dict | None, top: int = 10) -> list[str]:
    """The top groups, a line each, for the end of `wsconf run`."""
    report = as_json(records, run)
    if not report["groups"]:
        return []
    lines = [summary_line(report) + "; the worst first (wsconf findings RESULTS for all, with reproductions):"]
    for i, g in enumerate(report["groups"][:top], 1):
        lines.append(f"{i:>3}. [{g['harm'].replace('_', ' ')}] {g['count']:>4} x {g['title']}  "
                     f"(e.g. {g['reproduction']['case']})")
    if len(report["groups"]) > top:
        lines.append(f"     ... {len(report['groups']) - top} more group(s)")
    return lines


def to_text(report: dict, fmt: str, top: int | None = None) -> str:
    return json.dumps(report, indent=1, ensure_ascii=False) + "\n" if fmt == "json" else as_markdown(report, top)
