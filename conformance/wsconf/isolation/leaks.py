"""Leaks: every file outside the root holds a unique token, and a result that contains one, raw or
in a form content is commonly passed on in (base64, hex, percent-encoded), leaked that file.

Only a case whose workspace is configured to reach a file (contained: false, an allowedPaths or
basePath above it) may return its token."""
from __future__ import annotations

import base64
import functools
import os
import secrets
from pathlib import Path
from urllib.parse import quote

PREFIX = "wsconf secret "   # the spaces give a percent-encoder something to encode


def new_token() -> str:
    return PREFIX + secrets.token_hex(10)


def _base64_fragments(data: bytes) -> list[str]:
    """What `data` looks like inside any base64 text, for each of the 3 alignments: the characters
    that depend on its bits only (standard and URL-safe alphabets)."""
    out = []
    for k in range(3):
        enc = base64.b64encode(b"\0" * k + data).decode()
        frag = enc[-(-8 * k // 6): 8 * (k + len(data)) // 6]
        out += [frag, frag.replace("+", "-").replace("/", "_")]
    return out


def forms(text: str) -> dict[str, list[str]]:
    data = text.encode()
    return {"raw": [text],
            "base64": list(dict.fromkeys(_base64_fragments(data))),
            "hex": [data.hex(), data.hex().upper()],
            "percent-encoded": list(dict.fromkeys([quote(text, safe=""), quote(text, safe="").lower(),
                                                   "".join(f"%{b:02X}" for b in data),
                                                   "".join(f"%{b:02x}" for b in data)]))}


# Every token starts with PREFIX, so one pass per form of the prefix tells whether a string can hold
# any token at all; only then are the tokens themselves looked for.
_PREFIX_FORMS = [f for fs in forms(PREFIX).values() for f in fs]


@functools.lru_cache(maxsize=16)  # the run folder's HOME and TMPDIR tokens come back in every case
def _needles(token: str) -> tuple[tuple[str, str, str], ...]:
    return tuple((n, form, token) for form, ns in forms(token).items() for n in ns)


class Tokens:
    """The tokens of one case: token -> the file's label (e.g. sibling/CANARY) and path."""

    def __init__(self):
        self.files: dict[str, tuple[str, Path]] = {}
        self._needles: list[tuple[str, str, str]] = []   # (needle, form, token)

    def add(self, token: str, label: str, path: Path) -> None:
        self.files[token] = (label, path)
        self._needles += _needles(token)

    def found(self, text: str) -> list[tuple[str, str]]:
        """(token, form) for each token in `text`."""
        if not any(p in text for p in _PREFIX_FORMS):
            return []
        seen, out = set(), []
        for needle, form, token in self._needles:
            if token not in seen and needle in text:
                seen.add(token)
                out.append((token, form))
        return out


WHERE = {"value": {"text": "the text", "value": "the value", "media": "the media"},
         "model": "the model output", "message": "the error message", "name": "the error name",
         "code": "the error code"}


def _strings(value, where: str):
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k, where)
            yield from _strings(v, where)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, where)


def leaks(result, tokens: Tokens, reachable) -> list[str]:
    """One sentence per file whose token is in the result, unless `reachable(path)`."""
    out, told = [], set()
    parts = result.items() if isinstance(result, dict) else [("value", result)]
    for key, value in parts:
        where = WHERE.get(key, key)
        if isinstance(where, dict):
            where = where.get(result.get("kind") if isinstance(result, dict) else None, "the value")
        for shown_in, text in _strings(value, where):
            for token, form in tokens.found(text):
                label, path = tokens.files[token]
                if token in told or reachable(path):
                    continue
                told.add(token)
                out.append(f"leaked the content of {label}, outside the workspace ({form}, in {shown_in})")
    return out


def reach(workspace: dict, root: Path, home: Path):
    """A predicate: may this workspace read `path` by its configuration? True for everything with
    `contained: false`; otherwise for paths under a basePath or allowedPaths entry anywhere in the
    workspace block (a skill source's basePath too)."""
    tops: list[str] = []
    everything = False

    def walk(node):
        nonlocal everything
        if isinstance(node, dict):
            if node.get("contained") is False:
                everything = True
            if isinstance(node.get("basePath"), str):
                tops.append(node["basePath"])
            if isinstance(node.get("allowedPaths"), list):
                tops.extend(p for p in node["allowedPaths"] if isinstance(p, str))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(workspace)
    if everything:
        return lambda path: True
    resolved = []
    for top in tops:
        top = str(home) + top[1:] if top == "~" or top.startswith("~/") else top
        resolved.append(os.path.normpath(os.path.join(root, top)))

    def reachable(path: Path) -> bool:
        p = os.path.normpath(path)
        return any(p == t or p.startswith(t.rstrip("/") + "/") for t in resolved)
    return reachable
