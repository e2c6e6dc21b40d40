"""Mark claims in spec/claims.yaml as contradicted / imprecise / uncheckable, keeping the file's layout.

Usage: python tools/mark_claims.py MARKS.yaml   (MARKS: {claim_id: {status, observed | reason}})
Used when running the suite against @mastra/core shows the page is wrong or vague: the case pins
the real behaviour, the claim records what was observed.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

CLAIMS = Path(__file__).resolve().parents[1] / "spec" / "claims.yaml"


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def mark(marks: dict[str, dict]) -> list[str]:
    lines = CLAIMS.read_text(encoding="utf-8").split("\n")
    out, current, missing = [], None, set(marks)
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"  - id: (\S+)\s*$", line)
        if m:
            current = m.group(1)
        # drop an old status/observed/reason of a claim being re-marked
        if current in marks and re.match(r"    (status|observed|reason): ", line):
            i += 1
            continue
        out.append(line)
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        end_of_claim = current in marks and (nxt.startswith("  - id:") or not nxt.startswith("    "))
        if end_of_claim and not re.match(r"    (status|observed|reason): ", nxt):
            entry = marks[current]
            out.append(f"    status: {entry['status']}")
            key = "reason" if entry["status"] == "uncheckable" else "observed"
            out.append(f"    {key}: {_quoted(entry[key])}")
            missing.discard(current)
            current = None
        i += 1
    CLAIMS.write_text("\n".join(out), encoding="utf-8")
    return sorted(missing)


if __name__ == "__main__":
    not_found = mark(yaml.safe_load(Path(sys.argv[1]).read_text(encoding="utf-8")))
    if not_found:
        print("no such claim:", ", ".join(not_found), file=sys.stderr)
        sys.exit(1)
