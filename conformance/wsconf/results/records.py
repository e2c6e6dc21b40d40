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
        """The @mastra/core release these results judged (its own version, or the one a provider ran on)."""
        if self.implementation == "@mastra/core":
            return self.version
        return ((self.run or {}).get("dependencies") or {}).get("@mastra/core")


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


def _normal_text(text: str) -> str:
    text = _TMP.sub(r"{{\1}}", text)
    text = _TMP_BASE.sub("{{base}}", text)
    text = _ISO.sub("{{iso_time}}", text)
    text = _TOOL_CALL.sub(r"\1-{{n}}", text)
    return _PID.sub(r"\1{{pid}}", text)


def normalise(value, _key: str | None = None):
    """A step's output with what varies by construction replaced by a name: the case's temporary
    folders, ISO times, process ids (in text, and a number under a `pid` key), tool-call counters.
    Two runs of one release compare equal."""
    if isinstance(value, str):
        return _normal_text(value)
    if isinstance(value, dict):
        return {_normal_text(k): normalise(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    if _key in ("pid", "toolCallId") and isinstance(value, int) and not isinstance(value, bool):
        return "{{" + ("pid" if _key == "pid" else "n") + "}}"
    return value


def outputs(record: dict | None) -> list[dict]:
    """What the implementation answered, step by step, made comparable."""
    if not record:
        return []
    return [{"step": s.get("id"), "actual": normalise(s.get("actual"))} for s in record.get("steps") or []]


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
