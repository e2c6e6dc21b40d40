"""What a difference costs the user, decided by what the harness observed, and the root cause it
shares with other cases.

Harm classes, worst first:

    escape            a file outside the root read, written or deleted, or its content in an answer
    data_loss         inside the root, data that should have stayed is gone or changed, or a write
                      left other bytes than the upstream's
    false_success     a call answered success, but the root shows the work not done or done elsewhere
    wrong_refusal     an error where the upstream succeeds
    wrong_acceptance  success where the upstream refuses
    fault             the implementation crashed, hung or broke the protocol
    leftover          a process or file left behind after the case
    wrong_output      the answer's text or value differs
    metadata          only a header or metadata differs (the first line of a text; sizes and times)
    cosmetic          whitespace, or the wording of an error that is otherwise right

A case's harm is its worst divergence's. Its group ("signature") is that divergence's: the harm,
the call (the tool's family, fs.<method>, ...), and the shape of the difference with paths,
numbers, times and quoted names abstracted, so one root cause is one group.
"""
from __future__ import annotations

import difflib
import json
import re

from ..spec.placeholders import matches, substitute
from ..spec.tool_names import family_of
from ..isolation.root_state import kind as entry_kind
from .verdict import expected_string

HARMS = ("escape", "data_loss", "false_success", "wrong_refusal", "wrong_acceptance", "fault", "leftover",
         "wrong_output", "metadata", "cosmetic")
RANK = {h: i for i, h in enumerate(HARMS)}
TITLES = {
    "escape": "escape: outside the root read, written or leaked",
    "data_loss": "data loss inside the root",
    "false_success": "false success: reported done, not done",
    "wrong_refusal": "wrong refusal: fails where the upstream succeeds",
    "wrong_acceptance": "wrong acceptance: succeeds where the upstream refuses",
    "fault": "adapter fault: crashed, hung or broke the protocol",
    "leftover": "left behind: a process or file after the case",
    "wrong_output": "wrong output",
    "metadata": "header or metadata only",
    "cosmetic": "cosmetic: whitespace or error wording",
}
# A value's keys that only describe a file (file_stat, getInfo, listings): a difference under them
# alone is metadata.
METADATA_KEYS = frozenset({"size", "modifiedAt", "createdAt", "mtime", "ctime", "birthtime", "mimeType",
                           "lastModified", "sizeBytes", "modified", "created"})


PREFERRED = {"output": 0, "state": 1, "after": 2}


def classify(case, result) -> None:
    """Set each divergence's harm, the case's harm and its signature."""
    records = {r["id"]: r for r in result.steps}
    for d in result.divergences:
        d["harm"] = _harm(d, records)
    # among equals: the answer itself, then the root's state, which names the harm better than a
    # case's `after` check (that says less, and not in every case)
    worst = min(result.divergences, key=lambda d: (RANK[d["harm"]], PREFERRED.get(d["kind"], len(PREFERRED))))
    result.harm = worst["harm"]
    steps = {s["id"]: s for s in case.steps}
    # what the root lost or lacks is one cause whichever call did it (the stale-write check missing
    # in write_file, edit_file and writeFile alike): the group lists the tools
    call = "any call" if worst["kind"] in ("state", "after") else _call(worst, steps)
    result.signature = f"{worst['harm']} | {call} | {_shape(worst, records)}"


def _record(d: dict, records: dict) -> dict | None:
    return records.get(d["step"]) if d["step"] else None


def _harm(d: dict, records: dict) -> str:
    kind = d["kind"]
    if kind in ("outside", "leak"):
        return "escape"
    if kind == "fault":
        return "fault"
    if kind == "leftover":
        return "leftover"
    record = _record(d, records)
    refused = bool(record) and (record.get("actual") or {}).get("kind") == "error"
    expected_error = bool(record) and "error" in (record.get("expected") or {})
    if kind == "state":
        what = d["state"]["what"]
        if what in ("lost", "wrong"):
            return "data_loss"
        if refused and not expected_error:
            return "wrong_refusal"   # the work is missing because the call failed: that is the harm
        if refused and what == "stray":
            return "wrong_acceptance"  # it said no, but did something
        return "false_success"
    if kind == "after":
        if "holds other bytes" in d["text"]:
            return "data_loss"
        return "wrong_refusal" if refused and not expected_error else "false_success"
    if kind == "open":
        return "wrong_refusal" if "threw" in d["text"] else "wrong_acceptance" if "should have thrown" in d["text"] \
            else "wrong_output"
    if kind == "output" and record:
        return output_harm(record["expected"], record["actual"])
    return "wrong_output"


def output_harm(expect: dict, actual: dict) -> str:
    """The harm of an answer that differs from its expectation."""
    actual = actual if isinstance(actual, dict) else {}
    got = actual.get("kind")
    if "error" in expect:
        if got != "error":
            return "wrong_acceptance"
        if "error_code" in expect and expect["error_code"] != actual.get("code"):
            return "wrong_output"
        if not matches(expect["error"], actual.get("message", ""), {}) or (
                "error_name" in expect and expect["error_name"] != actual.get("name")):
            return "cosmetic"
        return "wrong_output"  # the details, spans or model output beside the error
    if got == "error":
        return "wrong_refusal"
    if "text" in expect and got == "text":
        want = expected_string(expect["text"])
        want = want if want is not None else substitute(expect["text"], {})
        value = actual.get("value") or ""
        if _squeezed(want) == _squeezed(value):
            return "cosmetic"
        a, b = want.split("\n"), value.split("\n")
        if len(a) == len(b) and len(a) > 1 and all(_line_matches(x, y) for x, y in zip(a[1:], b[1:])):
            return "metadata"   # only the header line differs
        return "wrong_output"
    if "value" in expect and got == "value":
        paths = _differing_paths(expect["value"], actual.get("value"))
        if paths and all(any(part in METADATA_KEYS for part in path if isinstance(part, str)) for path in paths):
            return "metadata"
    return "wrong_output"


def _squeezed(text: str) -> str:
    return " ".join(text.split())


def _line_matches(template: str, line: str) -> bool:
    return template == line or matches(template, line, {})


def _differing_paths(expected, actual, path=()) -> list[tuple]:
    """The paths to each leaf where the two differ (a whole subtree where their shapes differ)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in sorted(set(expected) | set(actual), key=str):
            if key not in expected or key not in actual:
                out.append(path + (key,))
            else:
                out += _differing_paths(expected[key], actual[key], path + (key,))
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += _differing_paths(e, a, path + (i,))
        return out
    if isinstance(expected, str) and isinstance(actual, str) and (expected == actual or matches(expected, actual, {})):
        return []
    if expected == actual and type(expected) is type(actual):
        return []
    if isinstance(expected, str) and "{{" in expected and not isinstance(actual, (dict, list)):
        return [] if matches(expected, str(actual), {}) else [path]
    return [path]


# -- signatures -----------------------------------------------------------------------------------

_ABSTRACT = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?"), "<time>"),
    (re.compile(r"'[^'\n]{0,200}'|\"[^\"\n]{0,200}\"|`[^`\n]{0,200}`"), "<q>"),
    (re.compile(r"[\w.~@+-]*(?:/[\w.~@+-]*)+"), "<path>"),                        # a/b, /a, ./x
    (re.compile(r"(?<![\w<.])\.?[\w~@+-]+\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w>])"), "<path>"),  # a.txt
    (re.compile(r"(?<![\w<.])\.[A-Za-z][\w-]*"), "<path>"),                        # .gitignore, .env
    (re.compile(r"\b[0-9a-f]{8,}\b"), "<hex>"),
    (re.compile(r"(?<![\w.])-?(?:[1-9]\d*|0\d+)(?:\.\d+)*(?![\w])"), "<n>"),  # a lone 0 stays: "0 bytes" tells
    (re.compile(r"<path>(?:[ \\]*<path>)+"), "<path>"),  # a name with spaces, or a path after a path
    (re.compile(r"[ \t]+"), " "),
]


def abstract(text: str, limit: int = 90) -> str:
    """A text with what varies from case to case (paths and file names, numbers other than 0,
    times, quoted names) replaced by a name, so the same mistake reads the same in every case."""
    text = str(text)
    for pattern, name in _ABSTRACT:
        text = pattern.sub(name, text)
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "…"


def edit_shape(want: str, got: str) -> str:
    """What the implementation said instead, at the first change, abstracted, with the word after it:
    "[… -> 0] bytes" for a size shown as 0, "[… -> Error:] File" for a prefix added. What it should
    have said is the case's own, and the example of the group shows it."""
    a, b = _words(abstract(want, 10_000)), _words(abstract(got, 10_000))
    fa, fb = [w.casefold() for w in a], [w.casefold() for w in b]
    if fa == fb:
        return "letter case differs" if a != b else "whitespace differs"
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, fa, fb, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        after = _context(a[i2]) if i2 < len(a) else ""
        new = _joined(b[j1:j2])[:50] if j2 > j1 else "nothing"
        return f"[… -> {new}] {after}".strip()
    return "differs"


_WORD = re.compile(r"<\w+>|->|\w+|[^\w\s]")


def _words(text: str) -> list[str]:
    """Words, abstracted names and single punctuation marks: "(<n> bytes)" is "(", "<n>", "bytes", ")"."""
    return _WORD.findall(text)


def _joined(words: list[str]) -> str:
    """Words back into text: no space before a closing mark or after an opening one."""
    text = re.sub(r" ([)\]}:,.;!?])", r"\1", " ".join(words))
    return re.sub(r"([(\[{]) ", r"\1", text).strip()


def _context(word: str) -> str:
    """A word beside a change, kept when it says what the change is about (a word of three letters
    or more, or an abstracted part); a name of the case's own ("a", ".env") is not."""
    return word if "<" in word or re.fullmatch(r"[A-Za-z]{3,}|[^\w\s]", word) else "…"


STEP_KINDS = ("agent", "hook_log", "group", "wait", "host", "retool", "concurrent", "tool_info", "needs_approval")


def _call(d: dict, steps: dict) -> str:
    """What the difference came from: the tool's family, fs.<method>, workspace.<method>, the kind of
    any other step (agent, hook_log, wait, ...), or open / close."""
    step = steps.get(d["step"])
    if step is None:  # open, close, or a fault named by the call in progress: "s1 (mastra_workspace_read_file)"
        if d["call"] in ("open", "close"):
            return d["call"]
        step = steps.get(d["call"].split(" ", 1)[0])
        if step is None:
            return family_of(re.sub(r"^\S+ \((.*)\)$", r"\1", d["call"]))
    if "tool" in step:
        return family_of(step["tool"])
    for key, label in (("fs", "fs.{}"), ("workspace", "workspace.{}")):
        if key in step:
            return label.format(step[key])
    return next((k for k in STEP_KINDS if k in step), "tools")


def _first_line_diff(want: str, got: str) -> tuple[str, str]:
    a, b = want.split("\n"), got.split("\n")
    for x, y in zip(a, b):
        if not _line_matches(x, y):
            return x, y
    if len(a) != len(b):
        return (f"{len(a)} lines", f"{len(b)} lines") if abs(len(a) - len(b)) > 0 else ("", "")
    return a[0] if a else "", b[0] if b else ""


def _shape(d: dict, records: dict) -> str:
    kind = d["kind"]
    if kind == "state":
        s = d["state"]  # what happened to which kind of entry; sizes and hashes are the case's own
        return f"root: {s['what']} {entry_kind(s['expected'] if s['what'] != 'stray' else s['actual'])}" + (
            f" -> {entry_kind(s['actual'])}" if s["what"] == "wrong" and entry_kind(s["actual"]) != entry_kind(s["expected"])
            else "")
    if kind == "after":  # "<file> holds other bytes afterwards", "<file> should exist as a file afterwards", ...
        head = d["text"].split("\n", 1)[0].split(" afterwards: ", 1)[-1]
        return "after: " + re.sub(r"^\S+ ", "<path> ", head)
    if kind in ("outside", "leak", "fault", "leftover", "open", "capture"):
        head = d["text"].split("\n", 1)[0]
        head = re.sub(r"^step '[^']*' (\([^)]*\))?:? ?", "", head)
        return f"{kind}: {abstract(head)}"
    record = _record(d, records)
    if not record:
        return abstract(d["text"].split("\n", 1)[0])
    expect, actual = record["expected"], record["actual"] if isinstance(record["actual"], dict) else {}
    got = actual.get("kind")
    if "error" in expect:
        if got != "error":
            return f"answers {got} instead of an error: {' '.join(abstract(_answer_head(actual)).split()[:4])}"
        return f"error: {edit_shape(_head(expect['error']), _head(actual.get('message')))}" + (
            f" (code {expect.get('error_code')} -> {actual.get('code')})" if expect.get("error_code") != actual.get("code")
            and "error_code" in expect else "")
    if got == "error":  # the first words name where it was thrown; the rest is the case's own
        return f"throws: {_joined(_words(abstract(_head(actual.get('message')), 400))[:5])}"
    want_kind = next((k for k in ("text", "value", "media") if k in expect), None)
    if want_kind and got != want_kind:
        return f"answers {got} instead of {want_kind}"
    if want_kind == "text":
        want = expected_string(expect["text"])
        x, y = _first_line_diff(want if want is not None else expect["text"], actual.get("value") or "")
        return f"text: {edit_shape(x, y)}"
    if want_kind == "value":
        paths = _differing_paths(expect["value"], actual.get("value"))
        if paths:
            first = paths[0]
            where = ".".join("[]" if isinstance(p, int) else str(p) for p in first) or "value"
            e, g = _at(expect["value"], first), _at(actual.get("value"), first)
            change = edit_shape(_plain(e), _plain(g))
            if isinstance(e, (list, dict)) and isinstance(g, (list, dict)):
                change = f"{type(e).__name__} of {_size(e)} -> {type(g).__name__} of {_size(g)}"
            return f"value at {where}: {change}"
    for extra in ("chunks", "spans", "error_details", "model", "model_text"):
        if extra in expect:
            return f"{extra} differ"
    return abstract(d["text"].split("\n", 1)[0])


def _at(value, path):
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _plain(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=str, sort_keys=True)[:300]


def _size(value) -> str:
    return "0 items" if not value else "<n> items"


def coarse(signature: str) -> str:
    """A group's signature with the call cut to its area (fs, workspace.skills) and the shape to its
    kind and first word ("throws: copyFile", "value at [].name", "root: lost"): where a difference's
    exact shape is its case's alone, the cases that differ the same way in the same area still come
    together."""
    harm, call, shape = (signature.split(" | ", 2) + ["", ""])[:3]
    call = ".".join(call.split(".")[:2]) if call.startswith("workspace.") else call.split(".")[0]  # fs, workspace.skills
    kind, _, rest = shape.partition(": ")
    first = rest.split(" ", 1)[0] if kind in ("throws", "error", "root", "after", "answers text instead of an error") else ""
    return f"{harm} | {call} | {kind}" + (f": {first}" if first else "")


def anywhere(signature: str) -> str:
    """A coarse signature at any call, a value's difference wherever in it: the same kind of
    difference wherever it was met."""
    harm, _, shape = (coarse(signature).split(" | ", 2) + ["", ""])[:3]
    return f"{harm} | any call | {'value' if shape.startswith('value at') else shape}"


def _head(text) -> str:
    return str(text or "").split("\n", 1)[0]


def _answer_head(actual: dict) -> str:
    value = actual.get("value")
    return _head(value if isinstance(value, str) else json.dumps(value, default=str)[:200])


def record_fields(result) -> dict:
    """What the results file keeps of a case's judgement: its harm and group, each divergence (its
    first line; the message has the first in full), the steps not judged, the root's changes."""
    fields = {}
    if result.divergences:
        fields.update(harm=result.harm, signature=result.signature, divergences=[
            {k: v for k, v in (("step", d["step"]), ("call", d["call"]), ("kind", d["kind"]), ("harm", d.get("harm")),
                               ("text", d["text"].split("\n", 1)[0][:400]), ("state", d.get("state"))) if v is not None}
            for d in result.divergences])
    if result.not_judged:
        fields["not_judged"] = result.not_judged
    if result.lenient:
        fields["refusals_only"] = result.lenient  # lacked: each expected error judged as a refusal only
    if result.observed:
        fields["observed"] = result.observed
    return fields
