"""Each case's `versions` from the release matrix: the releases whose behaviour equals the pinned
expectation, written as a range (several joined by `||` when a behaviour came and went).

A case is judged on a release when it ran there (passed, failed or error). Unsupported on the newest
release means the machine cannot check it (no bwrap, say): such a case gets no range from this
matrix. Unsupported on an older release only means that release lacks the feature: not its
behaviour, so outside the range.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..results.records import MATCHES, Results
from ..spec.loader import Spec
from ..spec.versions import from_releases, key


def case_ranges(spec: Spec, matrix: dict[str, Results], series: list[str] | None = None) -> dict[str, str | None]:
    """case id -> its range (None: every release run behaves as pinned, or the matrix cannot tell).
    series: every release, run or not (versions.from_releases: a release not run next to a change
    is left outside the range)."""
    releases = sorted(matrix, key=key)
    if not releases:
        return {}
    newest = matrix[releases[-1]]
    out = {}
    for case in spec.cases:
        latest = newest.records.get(case.id)
        if latest is None or latest["outcome"] == "unsupported":
            out[case.id] = case.versions  # not judged here: keep what the file says
            continue
        judged = [v for v in releases if case.id in matrix[v].records]
        passing = [v for v in judged if matrix[v].records[case.id]["outcome"] == MATCHES]
        out[case.id] = from_releases(passing, judged, series)
    return out


_ID = re.compile(r"^(\s*)- id:\s*['\"]?([^'\"\s#]+)")


def write_versions(spec: Spec, ranges: dict[str, str | None]) -> list[str]:
    """Set (or remove) each case's `versions:` line in its file, one line per case, right after its
    `id:` line. Returns the files changed."""
    by_file: dict[str, dict[str, str | None]] = {}
    for case in spec.cases:
        if case.id in ranges and ranges[case.id] != case.versions:
            by_file.setdefault(case.file, {})[case.id] = ranges[case.id]
    changed = []
    for rel, wanted in sorted(by_file.items()):
        path = Path(spec.root).parent / rel
        lines = path.read_text(encoding="utf-8").split("\n")
        out, i = [], 0
        while i < len(lines):
            line = lines[i]
            m = _ID.match(line)
            if not m or m.group(2) not in wanted:
                out.append(line)
                i += 1
                continue
            indent = m.group(1) + "  "
            block = [line]
            i += 1
            while i < len(lines) and not _ID.match(lines[i]) and (lines[i].startswith(indent) or not lines[i].strip()):
                block.append(lines[i])
                i += 1
            block = [b for b in block if not b.startswith(indent + "versions:")]
            spec_range = wanted[m.group(2)]
            if spec_range is not None:
                block.insert(1, f'{indent}versions: "{spec_range}"')
            out.extend(block)
        path.write_text("\n".join(out), encoding="utf-8")
        changed.append(rel)
    return changed


# The outcome a plain `wsconf run --adapter mastra@<version>` has for a case, from the release's
# matrix result (run with every case and no expectations), in the order the runner decides it:
# not applicable (its `versions`), unsupported, then the expectations file (xfail, or xpass when
# it passed), else the raw outcome.
APPLIED = ("passed", "not_applicable", "xfail", "unsupported", "failed", "xpass", "error", "not run")
UNEXPECTED = ("failed", "xpass", "error", "not run")


def applied(case, record: dict | None, version: str, expected: dict[str, str]) -> str:
    from ..spec.versions import satisfies
    if case.versions and not satisfies(version, case.versions):
        return "not_applicable"
    if record is None:
        return "not run"
    outcome = record["outcome"]
    if outcome == "unsupported":
        return "unsupported"
    if case.id in expected:
        return "xpass" if outcome == MATCHES else "xfail"
    return outcome if outcome in APPLIED else "error"


def check(spec: Spec, matrix: dict[str, Results], expectations_dir=None,
          only: set[str] | None = None) -> tuple[dict[str, dict[str, int]], dict[str, list[str]]]:
    """version -> counts of each applied outcome, and version -> the unexpected ones ("outcome case id").
    only: judge just these cases (a matrix run with `--ids`)."""
    from ..session import expectations
    counts, unexpected = {}, {}
    for version, results in matrix.items():
        expected = expectations.load("@mastra/core", expectations_dir, version)
        row = dict.fromkeys(APPLIED, 0)
        for case in spec.cases:
            if only is not None and case.id not in only:
                continue
            outcome = applied(case, results.records.get(case.id), version, expected)
            row[outcome] += 1
            if outcome in UNEXPECTED:
                unexpected.setdefault(version, []).append(f"{outcome} {case.id}")
        counts[version] = row
    return counts, unexpected
