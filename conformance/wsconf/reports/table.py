"""Turning result files (one JSON object per case) into tables people read."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..results.records import by_tool
from ..results.records import load_results as read_results

COLUMNS = ("passed", "failed", "xfail", "xpass", "unsupported", "not_applicable", "error")


def load_results(path: Path, require_end: bool = False) -> list[dict]:
    """The records of the spec's cases in a results file, checked (results/records.py; ResultsError
    when it cannot be trusted); the run's fresh cases (session/fresh.py) are not the spec's. Its
    first line may describe the run: load_run."""
    return fixed(read_results(path, require_end).records.values())


def fixed(records) -> list[dict]:
    """The spec's cases among records, without the run's fresh ones."""
    return [r for r in records if not r.get("fresh")]


def load_run(path: Path) -> dict | None:
    """What the run judged (implementation, version, dependencies ...), when the file says."""
    return read_results(path).run


def unconfined(run: dict | None) -> str | None:
    """Why the implementation of a run was not confined, when its first line says it was not."""
    confinement = (run or {}).get("confinement") or ""
    return confinement.removeprefix("UNCONFINED: ") if confinement.startswith("UNCONFINED") else None


def merged_runs(specs: list[str], require_end: bool = False) -> list[tuple[str, list[dict]]]:
    """LABEL=path arguments as (label, records), in order; the shards of one run (a CI matrix, each
    machine some tools) share a label and are joined. A case in two shards is an error: it would
    count twice. A run whose implementation was not confined is labelled so: `LABEL (UNCONFINED)`."""
    runs: dict[str, list[dict]] = {}
    loose: set[str] = set()
    for spec in specs:
        label, _, path = spec.rpartition("=") if "=" in spec else (Path(spec).stem, "", spec)
        results = read_results(Path(path), require_end)
        runs.setdefault(label, []).extend(fixed(results.records.values()))
        if unconfined(results.run) is not None:
            loose.add(label)
    for label, records in runs.items():
        ids = [r["id"] for r in records]
        if len(ids) != len(set(ids)):
            twice = sorted({i for i in ids if ids.count(i) > 1})
            raise SystemExit(f"wsconf report: {label}: cases in more than one results file: {', '.join(twice[:5])}")
    return [(f"{label} (UNCONFINED)" if label in loose else label, records) for label, records in runs.items()]


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
