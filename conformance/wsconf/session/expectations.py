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


class ExpectationsError(Exception):
    """An expectations file that cannot be read as one: the message names the file and line."""


def load(implementation: str, directory: Path | None = None, version: str | None = None,
         core: str | None = None) -> dict[str, str]:
    path = resolve(implementation, directory, version, core)
    if path is None:
        return {}
    data = read(path)
    failures = {}
    for group in data.get("groups") or []:
        for case_id in group.get("cases") or []:
            failures[case_id] = group["reason"]
    failures.update(data.get("failures") or {})
    return failures


def read(path: Path) -> dict:
    """The file's mapping, its shape checked: a problem is an ExpectationsError naming the line."""
    try:
        text = path.read_text(encoding="utf-8")
        node = yaml.compose(text)
    except UnicodeDecodeError as exc:
        raise ExpectationsError(f"{path}: not UTF-8 (byte {exc.start})") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise ExpectationsError(f"{path}:{mark.line + 1 if mark else 1}: not valid YAML: {exc.problem or exc}") from None
    except (OSError, yaml.YAMLError) as exc:
        raise ExpectationsError(f"{path}: cannot be read: {exc}") from None
    if node is None:
        return {}

    def fail(at, message):
        raise ExpectationsError(f"{path}:{at.start_mark.line + 1}: {message}")

    def strings(at, what):
        if not isinstance(at, yaml.ScalarNode) or at.tag != "tag:yaml.org,2002:str":
            fail(at, f"{what} must be a string")
        return at.value

    if not isinstance(node, yaml.MappingNode):
        fail(node, "an expectations file is a mapping (implementation, groups, failures)")
    for key, value in node.value:
        name = strings(key, "a key")
        if name == "implementation":
            strings(value, "implementation")
        elif name == "groups":
            if not isinstance(value, yaml.SequenceNode):
                fail(value, "groups must be a list of {reason, cases}")
            for group in value.value:
                keys = {strings(k, "a key of a group"): v for k, v in group.value} \
                    if isinstance(group, yaml.MappingNode) else fail(group, "a group is {reason, cases}")
                if set(keys) != {"reason", "cases"}:
                    fail(group, f"a group has exactly reason and cases, got {', '.join(sorted(keys)) or 'nothing'}")
                strings(keys["reason"], "a group's reason")
                if not isinstance(keys["cases"], yaml.SequenceNode):
                    fail(keys["cases"], "a group's cases must be a list of case ids")
                for case in keys["cases"].value:
                    strings(case, "a case id")
        elif name == "failures":
            if not isinstance(value, yaml.MappingNode):
                fail(value, "failures must be a mapping of case id: reason")
            for case, reason in value.value:
                strings(case, "a case id")
                strings(reason, f"the reason of {case.value}")
        elif name == FRESH:
            if not isinstance(value, yaml.MappingNode):
                fail(value, f"{FRESH} must be a mapping of tool: why its generated cases differ")
            for tool, reason in value.value:
                strings(tool, "a tool")
                strings(reason, f"the reason of {tool.value}")
        else:
            fail(key, f"unknown key {name!r}; the keys are implementation, groups, failures, {FRESH}")
    return yaml.safe_load(text) or {}


FRESH = "fresh"   # tool -> why its generated cases are expected to differ (session/fresh.py)


def fresh_differences(implementation: str, directory: Path | None = None, version: str | None = None,
                      core: str | None = None) -> dict[str, str]:
    """The tools whose generated cases the implementation is known to fail, with the reason."""
    path = resolve(implementation, directory, version, core)
    return dict((read(path).get(FRESH) or {})) if path else {}


def render(implementation: str, failures: dict[str, str], fresh: dict[str, str] | None = None) -> str:
    """The file's text: the cases that share a reason as one group (the biggest first), the rest one by
    one; then the tools whose fresh cases are known to differ, as they were."""
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
    if fresh:
        body[FRESH] = dict(sorted(fresh.items()))
    return HEADER + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100)


HEADER = ("# Cases this implementation is known to fail, each with the reason.\n"
          "# An unexpected pass, an entry naming a case that no longer exists, or a reason still\n"
          "# starting with REVIEW: (a draft's placeholder) fails the run.\n")
REVIEW = "REVIEW:"  # what `wsconf expectations` puts before a drafted reason, until a person writes the real one
FAILING = ("failed", "error", "xfail")
PASSING = ("passed", "xpass")


def dump(implementation: str, failures: dict[str, str], fresh: dict[str, str] | None = None) -> str:
    """The file's text: what `write` writes and `wsconf expectations` prints (render: by group)."""
    return render(implementation, failures, fresh)


def write(implementation: str, failures: dict[str, str], directory: Path | None = None,
          fresh: dict[str, str] | None = None) -> Path:
    path = path_for(implementation, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump(implementation, failures, fresh), encoding="utf-8")
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
