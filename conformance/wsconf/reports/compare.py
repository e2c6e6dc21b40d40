"""`wsconf compare A B`: list every case whose outputs differ between two sides, even where both fail
(a port can agree with the upstream on a bug).

A side is an adapter (run live over the spec: reference, mastra, mastra@1.65.0, cmd:...) or a saved
results file (`wsconf run --results`). Each side is labelled implementation@version; the diffs say
a and b. Values that vary by construction (temporary folders, times, pids, tool-call counters, what
a placeholder captured) are normalised first, and the differences are grouped by the field that
differs (`text`, `value.inputSchema.properties.tail.type`, `error.message` ...).
"""
from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

from ..judge.runner import NOT_APPLICABLE, UNSUPPORTED, run_case
from ..results.records import Results, is_results_file, load_results, normalise
from ..spec.loader import load_spec

SKIPPED = (UNSUPPORTED, NOT_APPLICABLE)
SHOWN = 300  # characters of one side's value in a listed difference


def _captured_out(steps: list[dict], captured: dict) -> list[dict]:
    text = json.dumps(steps, ensure_ascii=False)
    for name, value in captured.items():
        if value:
            text = re.sub(rf"(?<![0-9]){re.escape(str(value))}(?![0-9])", "{{" + name + "}}", text)
    return json.loads(text)


class LiveSide:
    """An adapter run over the spec, case by case, as the comparison asks: every case, whatever its
    `versions` say (a saved side keeps what its run said, and its not-applicable cases are skipped)."""

    def __init__(self, spec_text: str):
        from ..adapters.registry import load_adapter
        self.adapter = load_adapter(spec_text)
        self.label = f"{self.adapter.name}@{self.adapter.version}"

    def record(self, case) -> dict:
        result = run_case(case, self.adapter, all_versions=True)  # a difference is what a range records
        steps = _captured_out(result.steps, result.captured)
        return {"id": case.id, "outcome": result.outcome, "message": result.message, "steps": steps}

    def close(self):
        self.adapter.close()


class SavedSide:
    def __init__(self, results: Results):
        self.results = results
        unconfined = (results.confinement or "").startswith("UNCONFINED")
        self.label = results.label + (" (UNCONFINED)" if unconfined else "")

    def record(self, case) -> dict | None:
        return self.results.records.get(case.id)

    def close(self):
        pass


def open_side(text: str, require_end: bool = False):
    return SavedSide(load_results(text, require_end)) if is_results_file(text) else LiveSide(text)


def _field_diffs(a, b, path: str = "") -> list[tuple[str, object, object]]:
    """(field, a, b) for each leaf where a and b differ; list items are one field ([])."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            out += _field_diffs(a.get(k), b.get(k), f"{path}.{k}" if path else str(k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for x, y in zip(a, b):
            out += _field_diffs(x, y, f"{path}[]")
        return out
    return [] if a == b else [(path or "(whole)", a, b)]


def _steps(record: dict | None) -> dict[str, object]:
    return {s.get("id"): normalise(s.get("actual")) for s in (record or {}).get("steps") or []}


def differences(ra: dict | None, rb: dict | None) -> list[tuple[str, str, object, object]]:
    """(field, step, a, b) for a case: the outcome first, then every differing field of every step."""
    out = []
    oa, ob = (ra or {}).get("outcome", "absent"), (rb or {}).get("outcome", "absent")
    if oa != ob:
        out.append(("outcome", "", oa, ob))
    sa, sb = _steps(ra), _steps(rb)
    for step in list(dict.fromkeys([*sa, *sb])):
        for fld, x, y in _field_diffs(sa.get(step), sb.get(step)):
            out.append((fld, step, x, y))
    return out


def _short(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    text = text.replace("\n", "\\n")
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def compare(a_spec: str, b_spec: str, case_filter=None, out=print, require_end: bool = False) -> int:
    """require_end: refuse a saved side without its end line (an interrupted run)."""
    spec = load_spec()
    a = open_side(a_spec, require_end)
    try:
        b = open_side(b_spec, require_end)
    except Exception:
        a.close()
        raise
    try:
        cases = [c for c in spec.cases if case_filter is None or case_filter(c)]
        by_field: dict[str, list] = defaultdict(list)
        differing = set()
        compared = 0
        for case in cases:
            ra, rb = a.record(case), b.record(case)
            if (ra or {}).get("outcome") in SKIPPED or (rb or {}).get("outcome") in SKIPPED:
                continue
            if ra is None and rb is None:
                continue
            compared += 1
            for fld, step, x, y in differences(ra, rb):
                differing.add(case.id)
                by_field[fld].append((case.id, step, x, y))
        out(f"a: {a.label} ({a_spec})")
        out(f"b: {b.label} ({b_spec})")
        for fld in sorted(by_field, key=lambda f: (-len({c for c, *_ in by_field[f]}), f)):
            items = by_field[fld]
            out(f"\n== {fld}: {len({c for c, *_ in items})} case(s)")
            for case_id, step, x, y in items:
                where = f"{case_id}" + (f" (step {step})" if step else "")
                out(f"  {where}\n    a: {_short(x)}\n    b: {_short(y)}")
        out(f"\n{len(differing)} of {compared} cases compared differ between a ({a.label}) and b ({b.label})")
    finally:
        a.close()
        b.close()
    return 1 if differing else 0


__all__ = ["compare", "differences", "open_side", "Path"]
