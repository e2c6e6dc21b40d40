"""Mark claims in spec/claims.yaml as contradicted / imprecise / uncheckable, keeping the file's layout.

Usage: python tools/mark_claims.py MARKS.yaml   (MARKS: {claim_id: {status, observed | reason}};
status "clear" removes a mark)
Used when running the suite against @mastra/core shows the page is wrong or vague: the case pins
the real behaviour, the claim records what was observed.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

CLAIMS = Path(__file__).resolve().parents[1] / "spec" / "claims.yaml"
MARK_LINE = re.compile(r"    (status|observed|reason): ")


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _mark_lines(entry: dict) -> list[str]:
    if entry["status"] == "clear":  # a case now checks it: back to "the page is right"
        return []
    key = "reason" if entry["status"] == "uncheckable" else "observed"
    return [f"    status: {entry['status']}", f"    {key}: {_quoted(entry[key])}"]


def mark(marks: dict[str, dict]) -> list[str]:
    """Rewrite the file; return the ids that were not found."""
    out: list[str] = []
    current = None
    missing = set(marks)
    for line in CLAIMS.read_text(encoding="utf-8").split("\n"):
        starts_claim = re.match(r"  - id: (\S+)\s*$", line)
        ends_block = starts_claim or not line.startswith("    ")
        if ends_block and current in marks:
            out.extend(_mark_lines(marks[current]))  # the previous claim ended: add its new mark
            missing.discard(current)
            current = None
        if starts_claim:
            current = starts_claim.group(1)
        if current in marks and MARK_LINE.match(line):
            continue  # the old mark of a claim being re-marked goes
        out.append(line)
    if current in marks:
        out.extend(_mark_lines(marks[current]))
        missing.discard(current)
    CLAIMS.write_text("\n".join(out), encoding="utf-8")
    return sorted(missing)


if __name__ == "__main__":
    not_found = mark(yaml.safe_load(Path(sys.argv[1]).read_text(encoding="utf-8")))
    if not_found:
        print("no such claim:", ", ".join(not_found), file=sys.stderr)
        sys.exit(1)
