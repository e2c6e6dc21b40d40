"""Node's special values, as hypothesis strategies: what Node itself does something about before a
tool's own code sees an argument.

A string an implementation hands to Node (a path to `fs`, a command, `cwd` or an environment pair
to `child_process.spawn`) is checked and converted there: an empty command is refused, a NUL byte
is refused with the argument's name (ERR_INVALID_ARG_VALUE), a lone surrogate becomes U+FFFD in
the UTF-8 Node passes on, a name or path past the system's limits fails with ENAMETOOLONG, and a
leading `-` can be read as an option. `edge_string(bases)` takes a plain value the tool expects and
applies up to three of these edits to it (so mixes come up too); `edge_number` gives the numbers
and numeric strings at JavaScript's edges (0, negative, fractional, past 2**31 and 2**53, and
strings such as "NaN" or "0x10" that the tools' `coerceNumericString` sees).
"""
from __future__ import annotations

import unicodedata

from hypothesis import strategies as st

# Lone surrogates: the ends of both halves, and U+DC80..U+DCFF, the range Python's surrogateescape
# turns into raw bytes (Node writes EF BF BD for them like for any other lone surrogate).
HIGH = st.one_of(st.sampled_from(["\ud800", "\udbff", "\ud83d"]), st.integers(0xD800, 0xDBFF).map(chr))
LOW = st.one_of(st.sampled_from(["\udc00", "\udfff", "\ude00", "\udc80", "\udcff"]),
                st.integers(0xDC00, 0xDFFF).map(chr))
LONE = st.one_of(HIGH, LOW, st.just("\ude00\ud83d"))  # a pair in the wrong order is two lone halves
# Text NFC would change: a combining accent, a canonical singleton, decomposed Hangul.
NON_NFC = st.sampled_from(["e\u0301", "\u212b", "A\u030a", "\u1100\u1161", "\u2126", "o\u0308\u0304"])
# Past NAME_MAX (255 bytes) and PATH_MAX (4096) and, for a command, past MAX_ARG_STRLEN (131072).
LONG = st.sampled_from([255, 256, 300, 4097, 5000]).map(lambda n: "x" * n) | st.just("é" * 130)
HUGE = st.just(131_100).map(lambda n: "y" * n)


def _at(text: str, piece: str, where: float) -> str:
    i = round(where * len(text))
    return text[:i] + piece + text[i:]


_where = st.floats(0, 1)
EDITS = st.one_of(
    st.just(lambda s: ""),                                                      # empty
    st.builds(lambda w: lambda s: _at(s, "\x00", w), _where),                   # NUL anywhere
    st.just(lambda s: s + "\x00"),
    st.builds(lambda c, w: lambda s: _at(s, c, w), LONE, _where),               # a lone surrogate
    st.builds(lambda c: lambda s: c + s, LONE),
    st.builds(lambda c, w: lambda s: _at(s, c, w), NON_NFC, _where),            # not NFC
    st.just(lambda s: unicodedata.normalize("NFD", s)),
    st.builds(lambda c, w: lambda s: _at(s, c, w), LONG, _where),               # very long
    st.sampled_from([lambda s: "-" + s, lambda s: "--" + s, lambda s: "-"]),    # a leading dash
)


def edge_string(bases, max_edits: int = 3, huge: bool = False) -> st.SearchStrategy[str]:
    """A value from `bases` (a list or a strategy) as is, or with up to `max_edits` of Node's edges
    applied in turn. `huge` adds strings past MAX_ARG_STRLEN (for a command)."""
    base = st.sampled_from(bases) if isinstance(bases, (list, tuple)) else bases
    edits = st.one_of(EDITS, st.builds(lambda h: lambda s: s + h, HUGE)) if huge else EDITS
    return st.builds(lambda s, fs: _apply(s, fs), base, st.lists(edits, max_size=max_edits))


def _apply(text: str, edits) -> str:
    for edit in edits:
        text = edit(text)
    return text


# Numbers at JavaScript's edges, and the strings coerceNumericString turns into numbers (or not).
# JSON has no NaN or Infinity: they come as strings, the way a model would send them.
EDGE_NUMBERS = [0, -0.0, 1, -1, 2, 3, 0.5, -0.5, 1.5, 2.5, 1e-7, 5e-324, 2**31 - 1, 2**31, 2**32,
                2**53 - 1, 2**53, 2**53 + 2, 1e21, 1e308, -1e308]
NUMERIC_STRINGS = ["0", "-1", "3", "1.5", "NaN", "Infinity", "-Infinity", "1e3", " 2 ", "0x10", "0b11", "",
                   "-0", "1e400", "2.", ".5", "+3", "1_0", "9007199254740993", "\u0663", "\u00a02"]
edge_number = st.one_of(st.sampled_from(EDGE_NUMBERS), st.integers(-3, 12), st.sampled_from(NUMERIC_STRINGS))
