"""Judging one answer: the whole Result against the step's `expect` (text, error, media, value, and
the chunks, spans, details and model output beside them), and the root's files after a step
against its `after`. Placeholders name exactly the parts that vary; anything else differs."""
from __future__ import annotations

import base64
import os

from ..isolation import sizes
from ..isolation.tree import CaseTree, content_bytes
from ..spec.placeholders import matches, substitute
from .render import mismatch


def model_text(actual: dict):
    """The text the model is shown for this result."""
    model = actual.get("model")
    if model is None:
        return actual["value"] if actual["kind"] == "text" else None
    if model.get("type") == "text":
        return model.get("value")
    if model.get("type") == "content":
        return "\n".join(p.get("text", "") for p in model.get("value", []) if p.get("type") == "text")
    return None


def judge(expect: dict, actual: dict, tree: CaseTree, refusals_only: bool = False) -> str | None:
    """None when the result is what the case expects; otherwise a readable account of the difference.
    refusals_only: an expected error is judged as a refusal only (it throws; the message, code, name
    and details are not compared), for an implementation without a capability marked so."""
    values = tree.values
    kind = actual.get("kind")
    if refusals_only and "error" in expect:
        if kind == "error":
            return None
        return mismatch(f"expected a thrown error (a refusal), got a {kind} result", substitute(expect["error"], values),
                        actual.get("value"))
    if "text" in expect:
        whole = expected_string(expect["text"])  # a long text given as {$string: [...]}: compared exactly
        if kind != "text" or not (matches(expect["text"], actual.get("value"), values) if whole is None
                                  else whole == actual.get("value")):
            return mismatch("the text differs" if kind == "text" else f"expected a text result, got {kind}",
                            substitute(expect["text"], values) if whole is None else whole,
                            actual.get("value") if kind == "text" else actual)
    elif "error" in expect:
        if kind != "error":
            return mismatch(f"expected a thrown error, got a {kind} result", substitute(expect["error"], values),
                            actual.get("value"))
        if not matches(expect["error"], actual.get("message", ""), values):
            return mismatch("the error message differs", substitute(expect["error"], values), actual.get("message"))
        if "error_code" in expect and expect["error_code"] != actual.get("code"):
            return f"error code: expected {expect['error_code']!r}, got {actual.get('code')!r}"
        if "error_name" in expect and expect["error_name"] != actual.get("name"):
            return f"error name: expected {expect['error_name']!r}, got {actual.get('name')!r}"
    elif "media" in expect:
        want = expect["media"]
        if kind != "media":
            return mismatch(f"expected a media result, got {kind}", want, actual.get("value", actual))
        got = actual["value"]
        data = want.get("data_base64")
        if "data_of" in want:
            data = base64.b64encode((tree.root / want["data_of"]).read_bytes()).decode()
        expected = {"text": substitute(want["text"], values), "mediaType": want["mediaType"], "data": data}
        if not matches(want["text"], got.get("text"), values) or got.get("mediaType") != want["mediaType"] \
                or got.get("data") != data:
            return mismatch("the media result differs", expected, got)
    elif "value" in expect:
        if kind != "value" or not value_matches(expect["value"], actual.get("value"), values):
            return mismatch("the value differs" if kind == "value" else f"expected a value result, got {kind}",
                            substitute(expect["value"], values),
                            actual.get("value") if kind == "value" else actual)
    if "chunks" in expect and not value_matches(expect["chunks"], actual.get("chunks"), values):
        return mismatch("the chunks written to the writer differ", substitute(expect["chunks"], values),
                        actual.get("chunks"))
    if "error_details" in expect and not value_matches(expect["error_details"], actual.get("details"), values):
        return mismatch("the error's details (classes, fields) differ", substitute(expect["error_details"], values),
                        actual.get("details"))
    if "spans" in expect and not value_matches(expect["spans"], actual.get("spans"), values):
        return mismatch("the spans the call started differ", substitute(expect["spans"], values),
                        actual.get("spans"))
    if "model" in expect and not value_matches(expect["model"], actual.get("model"), values):
        return mismatch("the model output differs", substitute(expect["model"], values), actual.get("model"))
    if "model_text" in expect:
        shown = model_text(actual)
        if shown is None or not matches(expect["model_text"], shown, values):
            return mismatch("what the model is shown differs", substitute(expect["model_text"], values), shown)
    if "model" in expect and not value_matches(expect["model"], actual.get("model"), values):
        return mismatch("the model output differs", substitute(expect["model"], values), actual.get("model"))
    return None


def expected_string(expected):
    """`{"$string": [part, ...]}` in an expected value: the string of its parts, each a literal or
    `{repeat, times}` (as in setup), so a case can expect a megabyte of output exactly; else None."""
    if not (isinstance(expected, dict) and expected.keys() == {"$string"}):
        return None
    return "".join(part if isinstance(part, str) else part["repeat"] * part["times"] for part in expected["$string"])


def expand_strings(value):
    """A step's args with each `{"$string": [...]}` made the string it stands for: a case can write a
    megabyte of content through a tool or a filesystem method without spelling it out."""
    whole = expected_string(value)
    if whole is not None:
        return whole
    if isinstance(value, list):
        return [expand_strings(v) for v in value]
    if isinstance(value, dict):
        return {k: expand_strings(v) for k, v in value.items()}
    return value


def value_matches(expected, actual, values) -> bool:
    whole = expected_string(expected)
    if whole is not None:
        return isinstance(actual, str) and whole == actual
    if isinstance(expected, str):
        if expected in ("{{int}}", "{{pid}}", "{{epoch_ms}}") and isinstance(actual, int) and not isinstance(actual, bool):
            return matches(expected, str(actual), values)  # a number that varies, e.g. memory in getInfo
        return isinstance(actual, str) and matches(expected, actual, values)
    if isinstance(expected, dict):
        return isinstance(actual, dict) and expected.keys() == actual.keys() and all(
            value_matches(v, actual[k], values) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(
            value_matches(e, a, values) for e, a in zip(expected, actual))
    return expected == actual and type(expected) is type(actual) or (
        isinstance(expected, (int, float)) and not isinstance(expected, bool)
        and isinstance(actual, (int, float)) and not isinstance(actual, bool) and expected == actual)


def check_after(after: dict, tree: CaseTree) -> str | None:
    values = tree.values
    for rel, content in (after.get("files") or {}).items():
        path = tree.root / substitute(rel, values)
        if not path.is_file():
            return f"{rel} should exist as a file afterwards"
        want = content_bytes(substitute(content, values))
        with open(path, "rb") as fh:
            got = fh.read(len(want) + sizes.SHOWN)  # the implementation may have written gigabytes
        if got != want:
            return mismatch(f"{rel} holds other bytes afterwards", want.decode("utf-8", "replace"),
                            got.decode("utf-8", "replace"))
    for rel in after.get("absent", []):
        if os.path.lexists(tree.root / rel):
            return f"{rel} should not exist afterwards"
    for rel in after.get("dirs", []):
        if not (tree.root / rel).is_dir():
            return f"{rel} should be a directory afterwards"
    return None
