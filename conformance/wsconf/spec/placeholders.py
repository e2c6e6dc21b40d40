"""Named placeholders: the only variable parts an expected string may have.

Exact ones (root, outside, home) are substituted; pattern ones (pid, iso_time, int, uuid) match a
precise regular expression. What a pattern placeholder matched in a step's result is remembered,
so a later step's args can use it (the pid a background command printed, for kill_process). Anything else written as {{...}} is a spec error, so a typo can
never turn into a literal.
"""
from __future__ import annotations

import datetime
import re
import time

EXACT = ("root", "outside", "home", "fixtures",  # fixtures: spec/fixtures, programs a case runs
         "runtime_dir")  # capability runtime_dir: the folder of the implementation's runtime executable
PATTERNS = {
    "pid": r"[0-9]+",
    "iso_time": r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",
    # the same, and a time within the case's run (_within_run): the Workspace's createdAt and lastAccessedAt
    "iso_now": r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",
    # the same, and a time not before the previous step began (_within_run): a lastAccessedAt the
    # previous step's call must have moved
    "iso_since_previous_step": r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",
    "int": r"-?[0-9]+",
    "runtime_version": r"v[0-9]+\.[0-9]+\.[0-9]+",
    # Date.now().toString(36): 8 digits from 1973 to 2059 (CompositeFilesystem's id cfs-<it>),
    # and a time within the case's run (_within_run)
    "base36_ms": r"[0-9a-z]{8}",
    # Date.now(): a time in ms since the epoch, 13 digits from 2001 to 2286, and a time within the
    # case's run (_within_run): a streamed chunk's timestamp
    "epoch_ms": r"[0-9]{13}",
    # crypto.randomUUID(): a version-4 UUID (an agent signal's id)
    "uuid": r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
}
# Set by the case tree: when the case began, in ms since the epoch. A {{base36_ms}}, {{epoch_ms}} or {{iso_now}} must fall between
# it and the moment of the match, so a wrong clock or a wrong unit cannot pass for the right one.
RUN_STARTED = "run_started_ms"
# Set by the runner before each step: when the step before it began ({{iso_since_previous_step}}).
PREVIOUS_STEP_STARTED = "previous_step_started_ms"
TOKEN = re.compile(r"\{\{([a-z_][a-z0-9_]*)\}\}")


def unknown_placeholders(data, path=()):
    """Yield (path, token) for every {{name}} not in the closed list, anywhere in data."""
    if isinstance(data, str):
        for m in TOKEN.finditer(data):
            if m.group(1) not in EXACT and m.group(1) not in PATTERNS:
                yield path, m.group(0)
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from unknown_placeholders(k, path + (k,))
            yield from unknown_placeholders(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from unknown_placeholders(v, path + (i,))


def substitute(data, values: dict[str, str]):
    """Replace the exact placeholders everywhere in data (setup, args, workspace)."""
    if isinstance(data, str):
        return TOKEN.sub(lambda m: values.get(m.group(1), m.group(0)), data)
    if isinstance(data, dict):
        return {substitute(k, values): substitute(v, values) for k, v in data.items()}
    if isinstance(data, list):
        return [substitute(v, values) for v in data]
    return data


def has_pattern(template: str) -> bool:
    return any(m.group(1) in PATTERNS for m in TOKEN.finditer(template))


def _pattern(template: str) -> str:
    pieces, last = [], 0
    for m in TOKEN.finditer(template):
        pieces.append(re.escape(template[last:m.start()]))
        name = m.group(1)
        pieces.append(f"(?P<{name}>{PATTERNS[name]})" if name in PATTERNS and f"(?P<{name}>" not in "".join(pieces)
                      else f"(?:{PATTERNS[name]})" if name in PATTERNS else re.escape(m.group(0)))
        last = m.end()
    pieces.append(re.escape(template[last:]))
    return "".join(pieces)


def captures(template: str, actual, values: dict[str, str]) -> dict[str, str] | None:
    """Whole-string match of a template against the actual string: None when it does not match,
    else what each pattern placeholder matched (its first occurrence), e.g. {"pid": "4242"}."""
    if not isinstance(actual, str):
        return None
    template = substitute(template, values)
    if not has_pattern(template):
        return {} if template == actual else None
    found = re.fullmatch(_pattern(template), actual, re.DOTALL)
    if found is None:
        return None
    groups = {k: v for k, v in found.groupdict().items() if v is not None}
    within = all(_within_run(read(groups[name]), values, PREVIOUS_STEP_STARTED if name == "iso_since_previous_step"
                             else RUN_STARTED) for name, read in _TIMES.items() if name in groups)
    return groups if within else None


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def _iso_ms(text: str) -> int | None:
    """Date.toISOString() back to ms since the epoch; None for a date that does not exist (month 13)."""
    try:
        moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    except ValueError:
        return None
    return (moment - _EPOCH) // datetime.timedelta(milliseconds=1)


# the placeholders that name a moment, and how to read it as ms since the epoch
_TIMES = {"base36_ms": lambda digits: int(digits, 36), "epoch_ms": int, "iso_now": _iso_ms,
          "iso_since_previous_step": _iso_ms}


def _within_run(ms: int | None, values: dict[str, str], since: str = RUN_STARTED) -> bool:
    """Not before the case began (or the moment `since` names), not after now; a time that could not
    be read never is."""
    if since not in values:
        since = RUN_STARTED
    if since not in values:
        return True
    return ms is not None and int(values[since]) <= ms <= time.time_ns() // 1_000_000


def matches(template: str, actual: str, values: dict[str, str]) -> bool:
    return captures(template, actual, values) is not None


def render(template: str, values: dict[str, str]) -> str:
    """The template as the reader should see it: exact placeholders filled in."""
    return substitute(template, values)
