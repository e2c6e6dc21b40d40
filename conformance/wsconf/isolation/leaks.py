"""Leaks: every file outside the root holds a unique token, and a result that contains one leaked
that file: raw, or in a form content is passed on in. The token's random part is looked for in any
case and with any separators between its characters, reversed, in rot13, as hex, base64 or base32,
and inside gzip or zlib data written in base64; the whole token also percent-encoded. Every string
of a result is looked at, its keys too, and every member of the protocol response beside it.

Only a case whose workspace is configured to reach a file (contained: false, an allowedPaths or
basePath above it) may return its token."""
from __future__ import annotations

import base64
import codecs
import functools
import os
import re
import secrets
import zlib
from pathlib import Path
from urllib.parse import quote

PREFIX = "wsconf secret "   # the spaces give a percent-encoder something to encode
INFLATED = 16 * 1024 * 1024  # at most this much of compressed data is inflated to look inside
_ALNUM = bytes(range(ord("0"), ord("9") + 1)) + bytes(range(ord("a"), ord("z") + 1))
_DROP = bytes(b for b in range(256) if b not in _ALNUM)
_COMPRESSED = re.compile(r"(?:H4sI|eJ|eN|eA|eF)[A-Za-z0-9+/_-]{14,}={0,2}")  # gzip or zlib, in base64


def new_token() -> str:
    return PREFIX + secrets.token_hex(10)


def _fragments(data: bytes, encode, block: int, chars: int) -> list[str]:
    """What `data` looks like inside any text in an encoding of `block` bytes to `chars`
    characters (base64 3:4, base32 5:8), for each alignment: the characters its bits alone decide."""
    out = []
    for k in range(block):
        enc = encode(b"\0" * k + data)
        bits = 8 * block // chars  # bits per character
        out.append(enc[-(-8 * k // bits): 8 * (k + len(data)) // bits])
    return out


def forms(text: str) -> dict[str, list[str]]:
    """The whole token as it appears raw, or encoded whole (matched exactly in the text)."""
    data = text.encode()
    b64 = _fragments(data, lambda b: base64.b64encode(b).decode(), 3, 4)
    return {"raw": [text],
            "base64": list(dict.fromkeys(b64 + [f.replace("+", "-").replace("/", "_") for f in b64])),
            "hex": [data.hex(), data.hex().upper()],
            "percent-encoded": list(dict.fromkeys([quote(text, safe=""), quote(text, safe="").lower(),
                                                   "".join(f"%{b:02X}" for b in data),
                                                   "".join(f"%{b:02x}" for b in data)]))}


def folded(text: str) -> str:
    """The text lowercased, with everything but ASCII letters and digits taken out."""
    return text.lower().encode("ascii", "ignore").translate(None, _DROP).decode()


@functools.lru_cache(maxsize=64)  # the run folder's HOME and TMPDIR tokens come back in every case
def _needles(token: str) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """(exact needles, needles in the folded text), each as (needle, form)."""
    random = token[len(PREFIX):] if token.startswith(PREFIX) else token
    exact = [(n, form) for form, ns in forms(token).items() for n in ns]
    b64 = _fragments(random.encode(), lambda b: base64.b64encode(b).decode(), 3, 4)
    exact += [(n, "base64") for n in dict.fromkeys(b64 + [f.replace("+", "-").replace("/", "_") for f in b64])]
    loose = [(random, "raw"), (random[::-1], "reversed"), (codecs.encode(random, "rot13"), "rot13"),
             (codecs.encode(random[::-1], "rot13"), "reversed and rot13"), (random.encode().hex(), "hex")]
    loose += [(n.lower(), "base32") for n in _fragments(random.encode(), lambda b: base64.b32encode(b).decode(), 5, 8)]
    return tuple(exact), tuple(loose)


def _inflated(text: str) -> list[tuple[str, str]]:
    """(content, how) of each gzip or zlib stream written in base64 in the text, inflated (bounded)."""
    out = []
    if not any(head in text for head in ("H4sI", "eJ", "eN", "eA", "eF")):
        return out
    for found in _COMPRESSED.finditer(text):
        blob = found.group()
        try:
            data = (base64.urlsafe_b64decode if ("-" in blob or "_" in blob) else base64.b64decode)(
                blob + "=" * (-len(blob) % 4))
        except ValueError:
            continue
        how = "gzip+base64" if data[:2] == b"\x1f\x8b" else "zlib+base64"
        try:
            inflater = zlib.decompressobj(wbits=47)   # gzip or zlib, whichever the header says
            content = inflater.decompress(data, INFLATED)
        except zlib.error:
            continue
        out.append((content.decode("utf-8", "replace"), how))
    return out


class Tokens:
    """The tokens of one case: token -> the file's label (e.g. sibling/CANARY) and path."""

    def __init__(self):
        self.files: dict[str, tuple[str, Path]] = {}

    def add(self, token: str, label: str, path: Path) -> None:
        self.files[token] = (label, path)

    def found(self, text: str, _inside: bool = False) -> list[tuple[str, str]]:
        """(token, form) for each token in `text`, in whatever form."""
        out, fold, lowered = [], None, None
        for token in self.files:
            exact, loose = _needles(token)
            form = next((f for n, f in exact if n in text), None)
            if form is None:
                fold = folded(text) if fold is None else fold
                form = next((f for n, f in loose if n in fold), None)
                if form == "raw":  # the random part, but not as written: in another case, or spaced out
                    lowered = text.lower() if lowered is None else lowered
                    random = token[len(PREFIX):]
                    form = "raw" if random in text else "in another case" if random in lowered else "spaced out"
            if form is not None:
                out.append((token, form))
        if not _inside and len(out) < len(self.files):
            for content, how in _inflated(text):
                for token, form in self.found(content, _inside=True):
                    if all(token != t for t, _ in out):
                        out.append((token, how if form == "raw" else f"{how}, {form}"))
        return out


WHERE = {"value": {"text": "the text", "value": "the value", "media": "the media"},
         "model": "the model output", "message": "the error message", "name": "the error name",
         "code": "the error code", "response": "a member of the response beside its result"}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def leaks(result, tokens: Tokens, reachable) -> list[str]:
    """One sentence per file whose token is in the result, unless `reachable(path)`. The strings of
    each part of the result are looked at together, once."""
    out, told = [], set()
    parts = result.items() if isinstance(result, dict) else [("value", result)]
    for key, value in parts:
        where = WHERE.get(key, key)
        if isinstance(where, dict):
            where = where.get(result.get("kind") if isinstance(result, dict) else None, "the value")
        for text in _windows(_strings(value)):
            for token, form in tokens.found(text):
                label, path = tokens.files[token]
                if token in told or reachable(path):
                    continue
                told.add(token)
                out.append(f"leaked the content of {label}, outside the workspace ({form}, in {where})")
    return out


WINDOW, OVERLAP = 1 << 20, 4096   # a huge string is looked at a window at a time: no copy of it all


def _windows(strings):
    """The strings joined into texts of about WINDOW characters (a longer one cut into windows that
    overlap by more than any form of a token is long)."""
    batch, size = [], 0
    for text in strings:
        if len(text) > WINDOW:
            for start in range(0, len(text), WINDOW):
                yield text[max(0, start - OVERLAP): start + WINDOW]
            continue
        batch.append(text)
        size += len(text) + 1
        if size >= WINDOW:
            yield "\0".join(batch)
            batch, size = [], 0
    if batch:
        yield "\0".join(batch)


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
