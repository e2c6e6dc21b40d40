"""Showing a mismatch so a person sees whitespace: glyphs for tab, CR, trailing space, no final newline."""
from __future__ import annotations

import difflib
import json
import re

from ..isolation.sizes import SHOWN, clip_text, clipped

TAB, CR, SPACE, NO_EOL = "→\t", "␍", "·", "⏎̸ (no final newline)"


def surrogates_escaped(text: str) -> str:
    """Lone surrogates written as \\udXXX, so the text can be printed and sent between processes."""
    return "".join(f"\\u{ord(c):04x}" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def for_terminal(text: str) -> str:
    """Text an implementation had a hand in, safe to print: control characters (an ANSI escape that
    would move the cursor or paint a fake "53 passed") and lone surrogates written as escapes;
    newlines and tabs stay."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", str(text))


def visible(text: str) -> str:
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        stripped = line.rstrip(" \t\r")
        tail = line[len(stripped):].replace(" ", SPACE)  # trailing blanks would be invisible
        shown = (stripped + tail).replace("\t", "⇥").replace("\r", CR)
        last = i == len(lines) - 1
        if last and line == "" and len(lines) > 1:
            break  # the text ended with a newline: nothing more to show
        out.append(shown + ("" if not last else "  " + NO_EOL if text else "(empty string)"))
    return "\n".join(out)


def describe(value) -> str:
    """At most SHOWN characters of it, cut before rendering: a huge value costs nothing here."""
    if isinstance(value, str):
        if len(value) <= SHOWN:
            return visible(value)
        # the "\n" keeps visible() from marking the cut as the text's end
        return visible(value[:SHOWN] + "\n") + f"\n[... truncated: {len(value):,} characters, the first {SHOWN:,} shown]"
    return clip_text(json.dumps(clipped(value), indent=2, ensure_ascii=False, sort_keys=True))


def diff(expected, actual) -> str:
    a = describe(expected).splitlines()
    b = describe(actual).splitlines()
    return clip_text("\n".join(difflib.unified_diff(a, b, "expected", "actual", lineterm="", n=2)))


def mismatch(what: str, expected, actual) -> str:
    return (f"{what}\n--- expected ---\n{describe(expected)}\n--- actual ---\n{describe(actual)}\n"
            f"--- diff ---\n{diff(expected, actual)}")
