"""Turning result files (one JSON object per case) into tables people read."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from ..results.records import by_tool

COLUMNS = ("passed", "failed", "xfail", "xpass", "unsupported", "not_applicable", "error")


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def load_results(path: Path) -> list[dict]:
    """The case records of a results file (its first line may describe the run: load_run)."""
    return [r for r in _lines(path) if "run" not in r]


def load_run(path: Path) -> dict | None:
    """What the run judged (implementation, version, dependencies ...), when the file says."""
    return next((r["run"] for r in _lines(path) if "run" in r), None)


def merged_runs(specs: list[str]) -> list[tuple[str, list[dict]]]:
    """LABEL=path arguments as (label, records), in order; the shards of one run (a CI matrix, each
    machine some tools) share a label and are joined. A case in two shards is an error: it would
    count twice."""
    runs: dict[str, list[dict]] = {}
    for spec in specs:
        label, _, path = spec.rpartition("=") if "=" in spec else (Path(spec).stem, "", spec)
        runs.setdefault(label, []).extend(load_results(Path(path)))
    for label, records in runs.items():
        ids = [r["id"] for r in records]
        if len(ids) != len(set(ids)):
            twice = sorted({i for i in ids if ids.count(i) > 1})
            raise SystemExit(f"wsconf report: {label}: cases in more than one results file: {', '.join(twice[:5])}")
    return list(runs.items())


def counts(records: list[dict]) -> Counter:
    return Counter(r["outcome"] for r in records)


def conformance_row(label: str, records: list[dict], expectations_link: str) -> str:
    """Cases outside the release's `versions` are not applicable: counted apart, never as passed or failed."""
    c = counts(records)
    failed = c["failed"] + c["error"] + c["xpass"]
    cases = str(len(records) - c["not_applicable"])
    if c["not_applicable"]:
        cases += f" (+{c['not_applicable']} not applicable)"
    return (f"| {label} | {cases} | {c['passed']} | {failed} | {c['xfail']} | "
            f"{c['unsupported']} | {expectations_link} |")


CONFORMANCE_HEADER = ("| implementation | cases | passed | failed | expected failures | unsupported | expectations |\n"
                      "| --- | ---: | ---: | ---: | ---: | ---: | --- |")


def by_tool_table(records: list[dict]) -> str:
    """The outcomes by tool (results.records.by_tool: a case counts under every tool it calls)."""
    lines = ["| tool | cases | " + " | ".join(COLUMNS) + " |", "| --- | ---: |" + " ---: |" * len(COLUMNS)]
    for tool, c in by_tool(records).items():
        lines.append(f"| {tool} | {sum(c.values())} | " + " | ".join(str(c[k]) for k in COLUMNS) + " |")
    return "\n".join(lines)
