"""The compatibility table of a tool, in the manner of MDN's browser-compat tables: the behaviours
(the claims its cases check) down, the implementations across, and in each cell what that
implementation does with the cases of that claim, linking to the evidence.

A cell is, in this order:
- failed: at least one case fails (known failures of its expectations file too: the behaviour is
  still missing), named by the worst harm among them (judge/harm.py), linking to that case's result;
- partial: the cases that ran all pass, and others are unsupported (a capability or tool it lacks);
- passed: every case that applies passes;
- unsupported: none ran, each needing what the implementation lacks;
- not applicable: none applies (outside a release's `versions`);
- not run: none is in its results (a run of some cases only).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...judge.harm import RANK
from .implementations import Implementation
from .layout import case_url, esc

FAILING = ("failed", "error", "xfail")
PASSING = ("passed", "xpass")  # xpass: listed as a known failure, yet the behaviour is there


@dataclass
class Cell:
    status: str            # failed | partial | passed | unsupported | not_applicable | not_run
    harm: str | None
    counts: dict
    evidence: str | None   # the case whose result to look at

    @property
    def text(self) -> str:
        n, failing, passing = sum(self.counts.values()), self.counts.get("failing", 0), self.counts.get("passing", 0)
        if self.status == "failed":
            return f"✗ {self.harm.replace('_', ' ')} ({failing}/{n})"
        if self.status in ("passed", "partial"):
            return f"✓ {passing}/{n}"
        return {"unsupported": "unsupported", "not_applicable": "n/a", "not_run": "not run"}[self.status]

    @property
    def css(self) -> str:
        return {"failed": "bad", "partial": "part", "passed": "ok"}.get(self.status, "na")

    @property
    def title(self) -> str:
        parts = [f"{n} {k.replace('_', ' ')}" for k, n in sorted(self.counts.items()) if n]
        return f"{self.status.replace('_', ' ')}: " + ", ".join(parts)


def cell(cases: list, implementation: Implementation) -> Cell:
    counts = {"passing": 0, "failing": 0, "unsupported": 0, "not_applicable": 0, "not_run": 0}
    worst = None  # (rank, case, harm)
    for case in cases:
        outcome = implementation.outcome(case)
        if outcome in FAILING:
            counts["failing"] += 1
            entry = implementation.entry(case)
            harm = entry.harm or ("fault" if outcome == "error" else "wrong_output")
            if worst is None or RANK.get(harm, len(RANK)) < worst[0]:
                worst = (RANK.get(harm, len(RANK)), case, harm)
        elif outcome in PASSING:
            counts["passing"] += 1
        elif outcome == "unsupported":
            counts["unsupported"] += 1
        elif outcome == "absent":
            counts["not_run"] += 1
        else:
            counts["not_applicable"] += 1
    if worst:
        return Cell("failed", worst[2], counts, worst[1].id)
    if counts["passing"]:
        return Cell("partial" if counts["unsupported"] else "passed", None, counts, None)
    if counts["unsupported"]:
        return Cell("unsupported", None, counts, cases[0].id)
    return Cell("not_applicable" if counts["not_applicable"] else "not_run", None, counts, None)


def cell_html(c: Cell, implementation: Implementation, depth: int) -> str:
    text = esc(c.text)
    if c.evidence:
        text = f'<a href="{"../" * depth}{case_url(c.evidence)}#{esc(implementation.slug)}">{text}</a>'
    return f'<td class="cell {c.css}" title="{esc(c.title)}">{text}</td>'


LEGEND = ('<p class="legend"><span class="ok">✓ passed</span><span class="part">✓ partial: the rest unsupported</span>'
          '<span class="bad">✗ failed: its worst harm</span><span class="na">unsupported</span>'
          '<span class="na">n/a: not applicable</span><span class="na">not run</span> · figures: cases of the claim passing or failing / '
          'cases of the claim. A cell links to the case that shows it.</p>')
