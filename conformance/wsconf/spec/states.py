"""The pinned state of the root: for each case, what @mastra/core left in its root after the
workspace opened and after each step (isolation/root_state.py says how an entry reads).

They live in spec/states/, one JSON file per case file (spec/states/read_file/output.json for
spec/cases/read_file/output.yaml), written by `wsconf states pin` from runs of the upstream, never
by hand:

    {"format": 1, "pinned_from": "@mastra/core 1.71.0 (2 runs)",
     "cases": {"<case id>": {"open": <change>, "steps": {"<step id>": <change>, ...}}}}

where a change is {"+": {path: entry}, "-": [path]} against the state before it (the setup the
harness laid out, for "open"). A case without pinned states is judged on its answers alone.
"""
from __future__ import annotations

import json
from pathlib import Path

FORMAT = 1


def states_file(spec_root: Path, case_file: Path) -> Path:
    return spec_root / "states" / case_file.relative_to(spec_root / "cases").with_suffix(".json")


def load_states(path: Path) -> tuple[dict[str, dict], list[tuple[str, str]]]:
    """case id -> its pinned states, and the problems found as (key, message)."""
    if not path.is_file():
        return {}, []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return {}, [("", f"not valid JSON: {exc}")]
    problems = []
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("cases"), dict):
        return {}, [("", f"expected {{\"format\": {FORMAT}, \"cases\": {{...}}}}")]
    cases = {}
    for case_id, pinned in data["cases"].items():
        if not (isinstance(pinned, dict) and isinstance(pinned.get("open"), dict)
                and isinstance(pinned.get("steps"), dict)):
            problems.append((f"cases.{case_id}", "expected {\"open\": {...}, \"steps\": {...}}"))
            continue
        cases[case_id] = pinned
    return cases, problems
