"""spec/upstream-tests/*.yaml: every test of the upstream's own suite for these tools, traced.

Each test (file and title path) maps to the case ids that pin what it asserts, or to a `gap` (in
1.71.0, observable, no case yet: the work list), or to a `reason` (not in 1.71.0, or cannot be
observed here). Problems name the file, line and key, like the rest of the spec.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from .loader import SpecError
from .yaml_lines import load_with_lines

KINDS = ("cases", "gap", "reason")


@dataclass(frozen=True)
class UpstreamTest:
    file: str            # path in mastra-ai/mastra
    name: str            # describe > ... > it
    kind: str            # cases | gap | reason
    cases: tuple[str, ...]
    text: str            # the gap or the reason
    where: str           # spec file:line


def load_upstream_tests(spec_root: Path, known_cases: set[str]) -> tuple[list[UpstreamTest], list[SpecError]]:
    tests, errors = [], []
    folder = spec_root / "upstream-tests"
    for path in sorted(folder.glob("*.yaml")):
        rel = str(path.relative_to(spec_root.parent))
        try:
            data, lines = load_with_lines(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            errors.append(SpecError(rel, 1, "", f"not valid YAML: {exc}"))
            continue
        if not isinstance(data, list):
            errors.append(SpecError(rel, 1, "", "expected a list of {file, commit, tests}"))
            continue
        for i, entry in enumerate(data):
            for j, test in enumerate((entry or {}).get("tests") or []):
                key = (i, "tests", j)
                line = lines.line_of(key)
                present = [k for k in KINDS if k in (test or {})]
                if len(present) != 1 or not isinstance(test.get("name"), str):
                    errors.append(SpecError(rel, line, f"[{i}].tests[{j}]",
                                            "needs a name and exactly one of cases, gap, reason"))
                    continue
                kind = present[0]
                cases = tuple(test["cases"]) if kind == "cases" else ()
                for case_id in cases:
                    if case_id not in known_cases:
                        errors.append(SpecError(rel, line, f"[{i}].tests[{j}].cases", f"no case {case_id!r}"))
                text = "" if kind == "cases" else str(test[kind])
                tests.append(UpstreamTest(entry["file"], test["name"], kind, cases, text, f"{rel}:{line}"))
    return tests, errors


def summary(tests: list[UpstreamTest]) -> list[str]:
    by_file: dict[str, Counter] = {}
    for t in tests:
        kind = t.kind if t.kind != "reason" else ("not in 1.71.0" if t.text.startswith("not in 1.71.0")
                                                  else "unobservable")
        by_file.setdefault(t.file, Counter())[kind] += 1
    cols = ("cases", "gap", "not in 1.71.0", "unobservable")
    out = [f"{'upstream test file':<72}{'tests':>6}" + "".join(f"{c:>15}" for c in ("pinned", "gap", "not in 1.71.0",
                                                                                      "unobservable"))]
    total = Counter()
    for file in sorted(by_file):
        c = by_file[file]
        total.update(c)
        short = file.removeprefix("packages/core/src/workspace/")
        out.append(f"{short:<72}{sum(c.values()):>6}" + "".join(f"{c[k]:>15}" for k in cols))
    out.append(f"{'all':<72}{sum(total.values()):>6}" + "".join(f"{total[k]:>15}" for k in cols))
    return out
