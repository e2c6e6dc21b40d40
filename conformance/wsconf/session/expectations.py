"""Known failures per implementation, kept beside the spec (like WPT's metadata files).

conformance/expectations/<implementation>.yaml:
    implementation: "@mastra/core"
    failures:
      read_file.some.case: "the page documents X; 1.71.0 returns Y"
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..spec.resources import data_path

EXPECTATIONS_DIR = data_path("expectations")


def slug(implementation: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", implementation.lower()).strip("-")


def path_for(implementation: str, directory: Path | None = None) -> Path:
    return Path(directory or EXPECTATIONS_DIR) / f"{slug(implementation)}.yaml"


def resolve(implementation: str, directory: Path | None = None, version: str | None = None) -> Path | None:
    """The file in force: <implementation>@<version>.yaml when there is one, else <implementation>.yaml."""
    folder = Path(directory or EXPECTATIONS_DIR)
    candidates = ([folder / f"{slug(implementation)}@{version}.yaml"] if version else []) + [path_for(implementation, folder)]
    return next((p for p in candidates if p.exists()), None)


def load(implementation: str, directory: Path | None = None, version: str | None = None) -> dict[str, str]:
    path = resolve(implementation, directory, version)
    if path is None:
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return dict(data.get("failures") or {})


HEADER = ("# Cases this implementation is known to fail, each with the reason.\n"
          "# An unexpected pass, an entry naming a case that no longer exists, or a reason still\n"
          "# starting with REVIEW: (a draft's placeholder) fails the run.\n")
REVIEW = "REVIEW:"  # what `wsconf expectations` puts before a drafted reason, until a person writes the real one
FAILING = ("failed", "error", "xfail")
PASSING = ("passed", "xpass")


def dump(implementation: str, failures: dict[str, str]) -> str:
    """The file's text: what `write` writes and `wsconf expectations` prints."""
    body = {"implementation": implementation, "failures": dict(sorted(failures.items()))}
    return HEADER + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100)


def write(implementation: str, failures: dict[str, str], directory: Path | None = None) -> Path:
    path = path_for(implementation, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump(implementation, failures), encoding="utf-8")
    return path


def unreviewed(failures: dict[str, str]) -> list[str]:
    """The entries whose reason is still a draft's placeholder (or empty): a run with them fails."""
    return sorted(case_id for case_id, reason in failures.items()
                  if not str(reason or "").strip() or str(reason).startswith(REVIEW))


@dataclass
class Draft:
    failures: dict[str, str]   # the file as it would be
    new: list[str]             # failing in the results, not listed before (a REVIEW: reason)
    removed: list[str]         # listed, and passing in the results
    kept: list[str]            # listed, and not run by the results (another selection, unsupported)


def draft(current: dict[str, str], records: list[dict]) -> Draft:
    """The expectations updated from a results file: only the cases it ran are changed. A listed case
    the results do not have, or did not run (unsupported, not applicable), keeps its entry."""
    ran = {r["id"]: r for r in records}
    failures, new, removed, kept = {}, [], [], []
    for case_id, reason in current.items():
        outcome = ran[case_id]["outcome"] if case_id in ran else None
        if outcome in PASSING:
            removed.append(case_id)
        elif outcome not in FAILING:
            failures[case_id] = reason
            kept.append(case_id)
    for case_id, record in ran.items():
        if record["outcome"] in FAILING:
            if case_id in current:
                failures[case_id] = current[case_id]
            else:
                failures[case_id] = f"{REVIEW} {_first_line(record)}"
                new.append(case_id)
    return Draft(failures, sorted(new), sorted(removed), sorted(kept))


def _first_line(record: dict) -> str:
    text = (record.get("detail") or record.get("message") or "").strip()
    return text.splitlines()[0][:200] if text else "(no message)"
