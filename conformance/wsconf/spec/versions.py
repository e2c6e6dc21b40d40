"""Version ranges of cases (`versions:`): which @mastra/core releases a case's behaviour holds for.

A range is npm's syntax, the subset the spec needs: comparator sets joined by `||` (a behaviour
that came and went has several), each a space-separated list of `>=V`, `>V`, `<=V`, `<V`, `=V` or
`V`, e.g. ">=1.11.0 <1.40.0 || >=1.52.0". `from_releases` writes the shortest such range for a set
of releases out of the ordered list of all of them.
"""
from __future__ import annotations

import re

_COMPARATOR = re.compile(r"^(>=|<=|>|<|=)?v?(\d+)\.(\d+)\.(\d+)$")


class RangeError(ValueError):
    pass


def key(version: str) -> tuple[int, int, int]:
    m = _COMPARATOR.match(version.strip())
    if not m or m.group(1):
        raise RangeError(f"not a release version: {version!r}")
    return int(m.group(2)), int(m.group(3)), int(m.group(4))


def parse(spec: str) -> list[list[tuple[str, tuple[int, int, int]]]]:
    """The comparator sets of `spec`; RangeError names what is wrong."""
    sets = []
    for part in spec.split("||"):
        comparators = []
        for word in part.split():
            m = _COMPARATOR.match(word)
            if not m:
                raise RangeError(f"{spec!r}: {word!r} is not a comparator (>=1.2.3, <1.4.0, 1.2.3 ...)")
            comparators.append((m.group(1) or "=", (int(m.group(2)), int(m.group(3)), int(m.group(4)))))
        if not comparators:
            raise RangeError(f"{spec!r}: an empty comparator set")
        sets.append(comparators)
    return sets


_OPS = {">=": lambda a, b: a >= b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
        "<": lambda a, b: a < b, "=": lambda a, b: a == b}


def satisfies(version: str, spec: str) -> bool:
    v = key(version)
    return any(all(_OPS[op](v, bound) for op, bound in comparators) for comparators in parse(spec))


def from_releases(matching: list[str], releases: list[str], series: list[str] | None = None) -> str | None:
    """The range for `matching` out of the ordered `releases` (those judged): None when it is all of
    them (no range needed) or none. A run of releases ending at the last one is open-ended (`>=V`),
    as new releases are expected to keep the pinned behaviour until a run of the suite says
    otherwise. `series` (every release, judged or not) places an upper bound right after the last
    matching release, so a release not judged next to a change stays outside the range: not
    applicable rather than a guess."""
    ordered = sorted(releases, key=key)
    wanted = set(matching)
    if not wanted or wanted >= set(ordered):
        return None
    everything = sorted(set(series or []) | set(ordered), key=key)
    runs, current = [], []
    for release in ordered:
        if release in wanted:
            current.append(release)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    parts = []
    for run in runs:
        first, last = run[0], run[-1]
        low = "" if first == ordered[0] and first == everything[0] else f">={first}"
        if last == ordered[-1]:
            parts.append(low or f">={first}")
        else:
            parts.append(f"{low} <{everything[everything.index(last) + 1]}".strip())
    return " || ".join(parts)


def implementation_version(adapter) -> str | None:
    """The @mastra/core version an implementation is: its own when it is @mastra/core, else the one a
    provider reports running on. None for a port: it implements the pinned release, every case applies."""
    if getattr(adapter, "name", None) == "@mastra/core":
        return getattr(adapter, "version", None)
    return (getattr(adapter, "dependencies", None) or {}).get("@mastra/core")
