"""Saved results read back: a results file (`wsconf run --results`) starts with {"run": {...}}
(implementation, version, dependencies ...) and holds one record per case; and a record's outputs
made comparable across runs (the temporary folders, times and pids named, not compared)."""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..spec.placeholders import has_pattern, matches


MATCHES = "passed"  # the one raw outcome that means "behaves as the pinned expectation"


class ResultsError(Exception):
    """A results file that cannot be trusted or read: the message names the file and line."""


@dataclass
class Results:
    path: Path
    run: dict | None
    records: dict[str, dict] = field(default_factory=dict)
    end: dict | None = None     # the last line: counts and the sha256 of the lines before (None: the run did not end)

    @property
    def complete(self) -> bool:
        return self.end is not None

    @property
    def implementation(self) -> str:
        if self.run:
            return self.run.get("implementation") or "?"
        return next((r.get("implementation") or "?" for r in self.records.values()), "?")

    @property
    def version(self) -> str:
        if self.run:
            return str(self.run.get("version") or "?")
        return next((str(r.get("version") or "?") for r in self.records.values()), "?")

    @property
    def label(self) -> str:
        return f"{self.implementation}@{self.version}"

    @property
    def confinement(self) -> str | None:
        """How the implementation ran (the run's first line), when the file says."""
        return (self.run or {}).get("confinement")

    @property
    def core_version(self) -> str | None:
        return core_release(self.implementation, self.version, self.run)


def core_release(implementation: str, version: str, run: dict | None) -> str | None:
    """The @mastra/core release results judged: its own version, or the one a provider ran on (never
    a port's own version)."""
    if implementation == "@mastra/core":
        return version
    return ((run or {}).get("dependencies") or {}).get("@mastra/core")


def load_results(path: str | Path, require_end: bool = False) -> Results:
    """A results file, checked: every line a JSON object; the last line, when it is the end line,
    holds the sha256 of every byte before it and the counts of the records (else ResultsError:
    the file was changed after the harness wrote it). A file without the end line (an interrupted
    run) is read with `complete` false, or refused with require_end."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    run, records, end, before, counted = None, {}, None, 0, Counter()
    lines = data.split(b"\n")
    offset = 0
    for number, raw in enumerate(lines, 1):
        start, offset = offset, offset + len(raw) + 1
        if not raw.strip():
            continue
        if end is not None:
            raise ResultsError(f"{path}:{number}: a line after the end line: the file was changed after the run")
        try:
            item = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise ResultsError(f"{path}:{number}: not a JSON line ({exc}): not a results file, or cut short") from None
        if not isinstance(item, dict):
            raise ResultsError(f"{path}:{number}: a results line must be a JSON object, got {raw[:60]!r}")
        if "end" in item and "id" not in item:
            end, before = item["end"], start
            if not isinstance(end, dict):
                raise ResultsError(f"{path}:{number}: the end line must hold an object")
            end_at = number
        elif "run" in item and "id" not in item:
            run = item["run"]
        elif isinstance(item.get("id"), str) and isinstance(item.get("outcome"), str):
            records[item["id"]] = item
            counted[item["outcome"]] += 1
        else:
            raise ResultsError(f"{path}:{number}: a case record needs a string `id` and `outcome`")
    if end is None:
        if require_end:
            raise ResultsError(f"{path}: no end line: the run did not finish (or the file was cut); "
                               "--allow-incomplete reads it anyway")
        return Results(path, run, records)
    if hashlib.sha256(data[:before]).hexdigest() != end.get("sha256"):
        raise ResultsError(f"{path}:{end_at}: the sha256 in the end line does not match the lines before it: "
                           "the file was changed after the run")
    counted = dict(counted)
    if (end.get("counts") or {}) != counted:
        raise ResultsError(f"{path}:{end_at}: the end line counts {end.get('counts')} but the file holds {counted}")
    return Results(path, run, records, end)


def is_results_file(text: str) -> bool:
    return text.endswith((".jsonl", ".json")) and Path(text).is_file()


# -- "by tool": one definition for the run's summary, `wsconf report --by-tool`, the HTML report, the site

def families(record: dict) -> list[str]:
    """The tools a case counts under: every tool it calls (Case.families, which the run records as
    `tools`), else its file's family. A case calling read_file and write_file counts under both."""
    return list(record.get("tools") or [record["tool"]])


def by_tool(records) -> dict[str, Counter]:
    """Per tool, the outcomes of the cases that count under it (families); every case once in "all"."""
    records = list(records)
    counts: dict[str, Counter] = {}
    for record in records:
        for family in families(record):
            counts.setdefault(family, Counter())[record["outcome"]] += 1
    return dict(sorted(counts.items())) | {"all": Counter(record["outcome"] for record in records)}


# -- comparable outputs ---------------------------------------------------------------------------

# A case's folders sit in a run folder in TMPDIR (…/wsconf-run-X/wsconf-Y/root), wherever TMPDIR is.
_TMP = re.compile(r"/(?:[^/\"\\\s]+/)*?wsconf-[^/\"\\\s]+/(root|outside|home)(?![^/\"\\\s])")
_TMP_BASE = re.compile(r"/(?:[^/\"\\\s]+/)*wsconf-[^/\"\\\s]+")
_ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
_TOOL_CALL = re.compile(r"\b(call|tool-call|toolCall)[-_]?\d+\b")
_PID = re.compile(r"\b(PID:? ?|pid[\"']?: ?[\"']?)\d+")
_EPOCH_MS = re.compile(r"(?<![\d.])1\d{12}(?![\d.])")  # Date.now(): 13 digits, 2001 to 2286
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
# A random name's part (ws_mxb8duoq_1fv75c_search): letters and digits mixed, after - or _; and a local
# mount's marker, named by the hash of its (temporary) path in base 36, whatever its letters
_RANDOM_ID = re.compile(r"(?<=[-_])(?=[a-z]*[0-9])(?=[0-9]*[a-z])[a-z0-9]{6,}(?![a-zA-Z0-9])"
                        r"|(?<=\.mastra-mounts/mount-)[a-z0-9]+")
# Keys whose numbers are the clock's or the machine's, whatever the case (executionTimeMs, a chunk's
# timestamp, the sandbox's memoryMB): never a behaviour.
_CLOCK_KEYS = {"pid": "pid", "toolCallId": "n", "executionTimeMs": "ms", "timestamp": "ms", "duration": "ms",
               "durationMs": "ms", "startedAt": "ms", "endedAt": "ms", "memoryMB": "machine", "cpuCores": "machine"}


def _normal_text(text: str) -> str:
    text = _TMP.sub(r"{{\1}}", text)
    text = _TMP_BASE.sub("{{base}}", text)
    text = _ISO.sub("{{iso_time}}", text)
    text = _TOOL_CALL.sub(r"\1-{{n}}", text)
    text = _EPOCH_MS.sub("{{epoch_ms}}", text)
    text = _UUID.sub("{{uuid}}", text)
    text = _RANDOM_ID.sub("{{id}}", text)
    return _PID.sub(r"\1{{pid}}", text)


def normalise(value, _key: str | None = None):
    """A step's output with what varies by construction replaced by a name: the case's temporary
    folders, ISO times, epoch milliseconds, UUIDs, random parts of names (mount-n2bsjn), process ids
    (in text, and under a `pid` key), tool-call counters, and the numbers under the clock's and the
    machine's keys (executionTimeMs, timestamp, memoryMB ...). Two runs of one release compare equal."""
    if isinstance(value, str):
        if _key in _CLOCK_KEYS and value.isdigit():  # a pid given as a string
            return "{{" + _CLOCK_KEYS[_key] + "}}"
        return _normal_text(value)
    if isinstance(value, dict):
        return {_normal_text(k): normalise(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    if _key in _CLOCK_KEYS and isinstance(value, (int, float)) and not isinstance(value, bool):
        return "{{" + _CLOCK_KEYS[_key] + "}}"
    if isinstance(value, int) and not isinstance(value, bool) and _EPOCH_MS.fullmatch(str(value)):
        return "{{epoch_ms}}"
    return value


def _masked(expected, actual):
    """`actual` with every part its expectation names by a pattern placeholder ({{int}}, {{pid}},
    {{epoch_ms}} ...) and matches written as that placeholder: what the case says may vary."""
    if isinstance(expected, str) and has_pattern(expected):
        if isinstance(actual, (str, int, float)) and not isinstance(actual, bool):
            folders_named = _TMP_BASE.sub("{{base}}", _TMP.sub(r"{{\1}}", str(actual)))  # as {{root}} is written
            if matches(expected, folders_named, {}):
                return expected
        return actual
    if isinstance(expected, dict) and isinstance(actual, dict):
        return {k: _masked(expected.get(k), v) for k, v in actual.items()}
    if isinstance(expected, list) and isinstance(actual, list):
        return [_masked(expected[i] if i < len(expected) else None, v) for i, v in enumerate(actual)]
    return actual


def outputs(record: dict | None) -> list[dict]:
    """What the implementation answered, step by step, made comparable across releases: in the words
    of the step's expectation (in_expect_terms: only what the verdict compares), the parts the
    expectation names as variable masked, then normalised (folders, times, pids). Two releases whose
    outputs differ here differ in a pinned behaviour, never in their clocks."""
    if not record:
        return []
    return [{"step": s.get("id"),
             "actual": normalise(_masked(s.get("expected"), in_expect_terms(s.get("expected"), s.get("actual"))))}
            for s in record.get("steps") or []]


def in_expect_terms(expected, actual):
    """A step's Result written in the words of its `expect` ({"kind": "error", "message", "code"} ->
    {"error", "error_code"}), with only the keys the expectation checks, so a report can diff the two
    line by line: what differs is what the verdict compared, not the names of the keys."""
    if not (isinstance(expected, dict) and isinstance(actual, dict)) or actual.get("kind") not in RESULT_KINDS:
        return actual
    kind = actual["kind"]
    out = {kind: actual.get("message") if kind == "error" else actual.get("value")}
    for key, field in (("error_code", "code"), ("error_name", "name"), ("error_details", "details"),
                       ("model", "model"), ("chunks", "chunks"), ("spans", "spans")):
        if key in expected and (kind == "error" or not key.startswith("error")):
            out[key] = actual.get(field)
    if "model_text" in expected:
        model = actual.get("model")
        out["model_text"] = model.get("value") if isinstance(model, dict) else model
    return out


RESULT_KINDS = ("text", "error", "value", "media")


def shown(value) -> str:
    """One output as a reader wants it: the text itself for a text result, else compact JSON."""
    if isinstance(value, dict):
        for kind in ("text", "error"):
            if kind in value and isinstance(value[kind], str) and len(value) <= 3:
                return value[kind]
        if value.get("kind") in ("text",) and isinstance(value.get("value"), str):
            return value["value"]
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
