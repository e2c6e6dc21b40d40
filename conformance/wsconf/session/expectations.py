"""Known failures per implementation, kept beside the spec (like WPT's metadata files).

conformance/expectations/<implementation>.yaml:
    implementation: "@mastra/core"
    groups:                      # one cause, its reason once, every case it fails
      - reason: "readFile ignores the encoding option"
        cases: [read_file.some.case, read_file.other.case]
    failures:                    # a case on its own
      read_file.some.case: "the page documents X; 1.71.0 returns Y"

A reason beginning with REVIEW is a draft (`wsconf expectations --draft`) nobody has checked yet:
the run names every one still in force.
"""
from __future__ import annotations

import re
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


class ExpectationsError(Exception):
    """An expectations file that cannot be read as one: the message names the file and line."""


def load(implementation: str, directory: Path | None = None, version: str | None = None) -> dict[str, str]:
    path = resolve(implementation, directory, version)
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


def fresh_differences(implementation: str, directory: Path | None = None, version: str | None = None) -> dict[str, str]:
    """The tools whose generated cases the implementation is known to fail, with the reason."""
    path = resolve(implementation, directory, version)
    return dict((read(path).get(FRESH) or {})) if path else {}


UNREVIEWED = "REVIEW"


def unreviewed(failures: dict[str, str]) -> list[str]:
    """The cases whose reason is still a draft."""
    return sorted(case_id for case_id, reason in failures.items() if str(reason).startswith(UNREVIEWED))


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
    header = ("# Cases this implementation is known to fail, each with the reason.\n"
              "# An unexpected pass, or an entry naming a case that no longer exists, fails the run.\n")
    return header + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100)


def write(implementation: str, failures: dict[str, str], directory: Path | None = None,
          fresh: dict[str, str] | None = None) -> Path:
    path = path_for(implementation, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(implementation, failures, fresh), encoding="utf-8")
    return path
