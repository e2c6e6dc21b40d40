"""A run in which no case passed or failed tested nothing, and must not look green: this says why."""
from __future__ import annotations

from collections import Counter

JUDGED = ("passed", "failed", "xfail", "xpass", "error")


def nothing_tested(records: list[dict], run: dict | None) -> str | None:
    """Why no case was judged (every one unsupported or not applicable), or None when one was."""
    if not records or any(r["outcome"] in JUDGED for r in records):
        return None
    outcomes = Counter(r["outcome"] for r in records)
    if set(outcomes) == {"not_applicable"}:
        return f"every case was not applicable: {records[0].get('message') or ''}".rstrip(": ")
    run = run or {}
    if run.get("tools") == [] and run.get("tools_source") == "declared by the implementation":
        return "every case was unsupported: the implementation declared no tools"
    if not run.get("capabilities") and "capabilities" in run:
        return "every case was unsupported: the implementation declared no capabilities"
    reasons = Counter(r.get("message") or "" for r in records if r["outcome"] == "unsupported")
    common = ", ".join(f"{why} ({n})" for why, n in reasons.most_common(3))
    return f"every case was unsupported or not applicable: {common}"
