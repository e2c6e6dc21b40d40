"""Known failures per implementation, kept beside the spec (like WPT's metadata files).

conformance/expectations/<implementation>.yaml:
    implementation: "@mastra/core"
    groups:                      # one cause, its reason once, every case it fails
      - reason: "readFile ignores the encoding option"
        cases: [read_file.some.case, read_file.other.case]
    failures:                    # a case on its own
      read_file.some.case: "the page documents X; 1.71.0 returns Y"

<implementation>@<version>.yaml wins for that version of the implementation; for a provider on
another @mastra/core release (`mastra-sandboxfs@1.52.1`), <implementation>@mastra-core-<core>.yaml
wins for that release.

A reason beginning with REVIEW: is a draft (`wsconf expectations`) nobody has checked yet: the run
names every one still in force.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..judge.harm import TITLES
from ..spec.resources import data_path

EXPECTATIONS_DIR = data_path("expectations")


def slug(implementation: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", implementation.lower()).strip("-")


def path_for(implementation: str, directory: Path | None = None) -> Path:
    return Path(directory or EXPECTATIONS_DIR) / f"{slug(implementation)}.yaml"


def resolve(implementation: str, directory: Path | None = None, version: str | None = None,
            core: str | None = None) -> Path | None:
    """The file in force: <implementation>@<version>.yaml when there is one, then (a provider on
    @mastra/core `core`) <implementation>@mastra-core-<core>.yaml, else <implementation>.yaml."""
    folder = Path(directory or EXPECTATIONS_DIR)
    candidates = ([folder / f"{slug(implementation)}@{version}.yaml"] if version else []) + (
        [folder / f"{slug(implementation)}@mastra-core-{core}.yaml"] if core and implementation != "@mastra/core"
        else []) + [path_for(implementation, folder)]
    return next((p for p in candidates if p.exists()), None)


def load(implementation: str, directory: Path | None = None, version: str | None = None,
         core: str | None = None) -> dict[str, str]:
    path = resolve(implementation, directory, version, core)
    if path is None:
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    failures = {}
    for group in data.get("groups") or []:
        for case_id in group.get("cases") or []:
            failures[case_id] = group["reason"]
    failures.update(data.get("failures") or {})
    return failures


def render(implementation: str, failures: dict[str, str]) -> str:
    """The file's text: the cases that share a reason as one group (the biggest first), the rest one by
    one."""
    by_reason: dict[str, list[str]] = {}
    for case_id, reason in failures.items():
        by_reason.setdefault(reason, []).append(case_id)
    groups = [{"reason": reason, "cases": sorted(ids)} for reason, ids in
              sorted(by_reason.items(), key=lambda item: (-len(item[1]), item[0])) if len(ids) > 1]
    single = {ids[0]: reason for reason, ids in by_reason.items() if len(ids) == 1}
    body = {"implementation": implementation}
    if groups:
        body["groups"] = groups
    body["failures"] = dict(sorted(single.items()))
    return HEADER + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100)


HEADER = ("# Cases this implementation is known to fail, each with the reason.\n"
          "# An unexpected pass, an entry naming a case that no longer exists, or a reason still\n"
          "# starting with REVIEW: (a draft's placeholder) fails the run.\n")
REVIEW = "REVIEW:"  # what `wsconf expectations` puts before a drafted reason, until a person writes the real one
FAILING = ("failed", "error", "xfail")
PASSING = ("passed", "xpass")


def dump(implementation: str, failures: dict[str, str]) -> str:
    """The file's text: what `write` writes and `wsconf expectations` prints (render: by group)."""
    return render(implementation, failures)


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
                failures[case_id] = f"{REVIEW} {_drafted(record)}"
                new.append(case_id)
    return Draft(failures, sorted(new), sorted(removed), sorted(kept))


def _drafted(record: dict) -> str:
    """A new failure's reason until someone reviews it: its findings group's (harm and shape), so one
    cause reads the same in every case it fails, and is written as one group."""
    if record.get("signature"):
        harm, _, rest = record["signature"].partition(" | ")
        return f"{TITLES.get(harm, harm)}: {rest}"
    text = (record.get("detail") or record.get("message") or "").strip()
    return text.splitlines()[0][:200] if text else "(no message)"
