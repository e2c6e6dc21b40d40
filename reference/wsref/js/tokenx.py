"""The tokenx 1.3.0 token estimator (as bundled in @mastra/core 1.71.0), ported exactly.

Upstream (``tokenx/dist/index.mjs``) is used by Mastra with default options:

* ``estimateTokenCount(text)``            -> :func:`estimate_token_count`
* ``sliceByTokens(text, start, end)``     -> :func:`slice_by_tokens`
* ``sliceByTokensSafe(text, start, end)`` -> :func:`slice_by_tokens_safe`
  (``@mastra/core`` ``src/utils/slice-by-tokens.ts``: the tokenx slice with every
  unpaired surrogate replaced by U+FFFD)

The results are identical to the JavaScript ones on every input (verified
differentially against the real npm package, see ``tools/tokenx-oracle``).

JavaScript semantics that this port reproduces deliberately
------------------------------------------------------------
* JS strings are sequences of UTF-16 code units: ``.length``, ``.slice``, ``.split``
  and non-``u`` regexes all work on code units, so an emoji is 2 "characters" and a
  slice can cut a surrogate pair in half.  Internally every text is converted to a
  *unit string*: a Python ``str`` holding one character per UTF-16 code unit (astral
  characters become two lone-surrogate code points).  Results are converted back
  (adjacent high+low surrogates merge into one astral character; unpaired ones stay
  as lone surrogate code points, exactly what JS would hold).  Pure-BMP text needs no
  conversion.  A Python string that already contains a high and a low surrogate as
  two separate code points denotes the same UTF-16 sequence as the astral character,
  and is treated (and returned) as such.
* ``Array.from(text).length`` (the CJK rule) counts code points: a valid surrogate
  pair counts 1, a lone surrogate counts 1.
* All character classes are written out explicitly from an exhaustive dump of
  node 20's regex engine over all 65536 code units, because Python ``re`` differs:
  JS ``\\s`` includes U+FEFF and excludes U+001C-U+001F and U+0085; JS ``\\d`` is
  ASCII only; JS non-unicode ``/i`` canonicalises with simple ``toUpperCase``, so
  ``ß`` and ``ẞ`` do *not* case-fold onto each other, while ``ÿ`` matches ``Ÿ``
  (U+0178).
* ``Math.ceil``/``Math.floor`` of IEEE-double divisions are reproduced with the same
  float operations in the same order.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from itertools import accumulate, filterfalse

__all__ = ["estimate_token_count", "slice_by_tokens", "slice_by_tokens_safe"]

# ---------------------------------------------------------------------------
# Character classes (exact, from node 20 over U+0000..U+FFFF)
# ---------------------------------------------------------------------------

# JS `\s`: WhiteSpace + LineTerminator.
_WS = "\t\n\x0b\x0c\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# tokenx PATTERNS.punctuation: [.,!?;(){}[\]<>:/\\|@#$%^&*+=`~_-]
_PUNCT = r"!#$%&()*+,\-./:;<=>?@\[\\\]^_`{|}~"
# tokenx PATTERNS.cjk (code units; note it does not include surrogates D800-DFFF)
_CJK_CLASS = (
    "\u1100-\u11ff\u2e80-\u2eff\u3000-\u303f\u30a0-\u30ff\u3130-\u318f"
    "\u31c0-\u31ef\u3200-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff\uff00-\uffef"
)
# DEFAULT_LANGUAGE_CONFIGS patterns as node matches them (non-unicode /i):
#   /[äöüßẞ]/i                 -> 3 chars/token
#   /[éèêëàâîïôûùüÿçœæáíóúñ]/i -> 3 chars/token
#   /[ąćęłńóśźżěščřžýůúďťň]/i  -> 3.5 chars/token
# The first two share the same ratio, so they are merged (first match wins).
_DE = "\u00c4\u00d6\u00dc\u00df\u00e4\u00f6\u00fc\u1e9e"
_FR = (
    "\u00c0-\u00c2\u00c6-\u00cb\u00cd-\u00cf\u00d1\u00d3\u00d4\u00d9-\u00dc"
    "\u00e0-\u00e2\u00e6-\u00eb\u00ed-\u00ef\u00f1\u00f3\u00f4\u00f9-\u00fc\u00ff"
    "\u0152\u0153\u0178"
)
_CZ = (
    "\u00d3\u00da\u00dd\u00f3\u00fa\u00fd\u0104-\u0107\u010c-\u010f\u0118-\u011b"
    "\u0141-\u0144\u0147\u0148\u0158-\u015b\u0160\u0161\u0164\u0165\u016e\u016f"
    "\u0179-\u017e"
)

# TOKEN_SPLIT_PATTERN = /(\s+|[punct]+)/  (one capturing group)
_SPLIT_RE = re.compile("([" + _WS + "]+|[" + _PUNCT + "]+)")
_CJK_RE = re.compile("[" + _CJK_CLASS + "]")
_LANG3_RE = re.compile("[" + _DE + _FR + "]")
_LANG35_RE = re.compile("[" + _CZ + "]")
_PAIR_RE = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_WS_SET = frozenset("\t\n\x0b\x0c\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | frozenset(
    chr(c) for c in range(0x2000, 0x200B)
)

_DEFAULT_CHARS_PER_TOKEN = 6
_SHORT_TOKEN_THRESHOLD = 3


# ---------------------------------------------------------------------------
# UTF-16 unit-string conversion
# ---------------------------------------------------------------------------


def _to_units(text: str) -> str:
    """Return ``text`` with one Python character per UTF-16 code unit."""
    if text.isascii():
        return text
    b16 = text.encode("utf-16-le", "surrogatepass")
    if len(b16) == 2 * len(text):  # no astral characters
        return text
    b32 = bytearray(len(b16) * 2)
    b32[0::4] = b16[0::2]
    b32[1::4] = b16[1::2]
    return b32.decode("utf-32-le", "surrogatepass")


def _from_units(units: str) -> str:
    """Canonical Python form of a UTF-16 unit sequence: surrogate pairs (also a
    high and a low surrogate held as two separate code points) merge into one
    astral character; unpaired surrogates stay as lone surrogate code points."""
    if units.isascii() or not _SURROGATE_RE.search(units):
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


# ---------------------------------------------------------------------------
# Segment estimation (estimateSegmentTokens with default options)
# ---------------------------------------------------------------------------
#
# The split yields exactly three kinds of non-empty segments:
#   * whitespace runs  -> /^\s+$/ matches            -> 0
#   * punctuation runs -> cannot be CJK or numeric   -> 1 if len <= 3 else ceil(len / 2)
#   * "other" runs (no whitespace, no punctuation)   -> see _other_tokens
# (the alphanumeric branch and the fallback compute the same value.)
#
# Segment boundaries are the same whether the text is held as code points or as
# UTF-16 units (separators are BMP non-surrogates), so texts are split in their
# native Python form; per-segment estimates use UTF-16 lengths, and only a
# segment that a slice actually cuts is converted to a unit string.


def _punct_tokens(n: int) -> int:
    return 1 if n <= _SHORT_TOKEN_THRESHOLD else math.ceil(n / 2)


def _other_tokens(seg: str) -> int:
    """Tokens of an "other" run, given in native Python form.

    Works on the native form without converting to units: the character
    classes involved are all BMP non-surrogates, the UTF-16 length is the length
    of the UTF-16 encoding, and ``Array.from`` counts native code points except
    that a high + low surrogate held as two code points is one JS code point.
    (``max(seg)`` is avoided: it is slow on long strings.)
    """
    if seg.isascii():
        n = len(seg)
        if n <= _SHORT_TOKEN_THRESHOLD or seg.isdigit():
            # /^\d+(?:[.,]\d+)*$/ -- [.,] never occur in an "other" run
            return 1
        return math.ceil(n / _DEFAULT_CHARS_PER_TOKEN)
    if _CJK_RE.search(seg):
        # Array.from(seg).length: code points, a valid surrogate pair counts once.
        n = len(seg)
        if _SURROGATE_RE.search(seg):
            n -= len(_PAIR_RE.findall(seg))
        return n
    n = len(seg.encode("utf-16-le", "surrogatepass")) >> 1  # UTF-16 length
    if n <= _SHORT_TOKEN_THRESHOLD:
        return 1
    if _LANG3_RE.search(seg):
        return math.ceil(n / 3)
    if _LANG35_RE.search(seg):
        return math.ceil(n / 3.5)
    return math.ceil(n / _DEFAULT_CHARS_PER_TOKEN)


def _segment_tokens(seg: str) -> int:
    """Tokens of any non-empty segment given in native Python form."""
    c = seg[0]
    if c in _WS_SET:
        return 0
    if c in _PUNCT_SET:
        return _punct_tokens(len(seg))
    return _other_tokens(seg)


_PUNCT_SET = frozenset("!#$%&()*+,-./:;<=>?@[\\]^_`{|}~")

# estimate_token_count works on UTF-8 bytes: in UTF-8 every byte < 0x80 is an
# ASCII character and every byte of a multi-byte sequence is >= 0x80, so the
# ASCII separators (JS \s restricted to ASCII, and all of tokenx's punctuation)
# can be handled with bytes.translate + bytes.split (C speed), once the
# non-ASCII JS whitespace characters have been replaced by a space (which does
# not change the estimate: whitespace runs are separators worth 0 tokens).
# bytes.split() with no argument splits on exactly b" \t\n\x0b\x0c\r" -- JS \s
# restricted to ASCII (\x1c-\x1f, which Python's str.split() would also split
# on, are not JS whitespace).
_NONASCII_WS_CHARS = tuple(c for c in sorted(_WS_SET) if not c.isascii())
_OTHER_TABLE = bytes(0x20 if chr(b) in _PUNCT_SET else b for b in range(256))
_PUNCT_TABLE = bytes(0x2E if chr(b) in _PUNCT_SET else 0x20 for b in range(256))


def _estimate_bytes(data: bytes, is_ascii: bool) -> int:
    others = data.translate(_OTHER_TABLE).split()
    total = 0
    if not is_ascii:
        cjk_search = _CJK_RE.search
        for bseg, cnt in Counter(filterfalse(bytes.isascii, others)).items():
            seg = bseg.decode("utf-8", "surrogatepass")
            if cjk_search(seg):  # inlined CJK branch of _other_tokens
                n = len(seg)
                # surrogates (surrogatepass) are encoded as ED A0..BF xx
                if b"\xed" in bseg and _SURROGATE_RE.search(seg):
                    n -= len(_PAIR_RE.findall(seg))
                total += cnt * n
            else:
                total += cnt * _other_tokens(seg)
        others = list(filter(bytes.isascii, others))
    # ASCII "other" runs: 1 if len <= 3, else ceil(len / 6) ...
    for n, cnt in Counter(map(len, others)).items():
        total += cnt * (1 if n <= _SHORT_TOKEN_THRESHOLD else math.ceil(n / _DEFAULT_CHARS_PER_TOKEN))
    # ... except all-digit runs (/^\d+(?:[.,]\d+)*$/), which count 1 whatever their length
    for n, cnt in Counter(map(len, filter(bytes.isdigit, others))).items():
        if n > _SHORT_TOKEN_THRESHOLD:
            total -= cnt * (math.ceil(n / _DEFAULT_CHARS_PER_TOKEN) - 1)
    # punctuation runs
    for n, cnt in Counter(map(len, data.translate(_PUNCT_TABLE).split())).items():
        total += cnt * _punct_tokens(n)
    return total


def _split(text: str) -> list:
    """text.split(TOKEN_SPLIT_PATTERN).filter(Boolean)"""
    return list(filter(None, _SPLIT_RE.split(text)))


def _segment_token_list(segs: list) -> list:
    memo = {}
    for seg in set(segs):
        memo[seg] = _segment_tokens(seg)
    return list(map(memo.__getitem__, segs))


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------


def estimate_token_count(text: str) -> int:
    """tokenx ``estimateTokenCount(text)`` with default options."""
    if not text:
        return 0
    if text.isascii():
        return _estimate_bytes(text.encode("ascii"), True)
    for ch in _NONASCII_WS_CHARS:
        if ch in text:
            text = text.replace(ch, " ")
    return _estimate_bytes(text.encode("utf-8", "surrogatepass"), False)


def _extract(seg: str, pos: int, count: int, start, end) -> str:
    """extractSegmentPart (``seg`` native; cuts on UTF-16 units)."""
    if count == 0:
        return seg if start <= pos < end else ""
    seg_end = pos + count
    if pos >= end or seg_end <= start:
        return ""
    overlap_start = max(0, start - pos)
    overlap_end = min(count, end - pos)
    if overlap_start == 0 and overlap_end == count:
        return seg
    units = _to_units(seg)
    n = len(units)
    char_start = math.floor(overlap_start / count * n)
    char_end = math.ceil(overlap_end / count * n)
    return units[char_start:char_end]


# Slicing strategies.  All three produce exactly what the JS loop produces:
#
# * _slice_forward: the literal JS loop over lazily matched segments, stopping
#   at the first segment with pos >= end.  Cost ~ end (used for heads).
# * _slice_backward: the same segments visited from the end of the text (their
#   boundaries found on the reversed text; the segments themselves are taken
#   from the original), positions derived from the total.  Cost ~ total - start
#   (used for tails, i.e. negative ``start``).
# * _slice_full: split everything, per-segment counts memoised, prefix sums and
#   bisection; only the first and last contributing segments can be cut.
#
# The choice between them is purely a performance decision.

_SEG_RE = re.compile("[" + _WS + "]+|[" + _PUNCT + "]+|[^" + _WS + _PUNCT + "]+")
_LAZY_MIN_TOKENS = 20_000


def _slice_forward(text: str, start, end) -> str:
    parts = []
    pos = 0
    for m in _SEG_RE.finditer(text):
        if pos >= end:
            break
        seg = m.group()
        count = _segment_tokens(seg)
        piece = _extract(seg, pos, count, start, end)
        if piece:
            parts.append(piece)
        pos += count
    return "".join(parts)


def _slice_backward(text: str, total: int, start, end) -> str:
    n = len(text)
    parts = []
    seg_end = total  # token position just past the current segment
    for m in _SEG_RE.finditer(text[::-1]):
        a, b = m.span()
        seg = text[n - b:n - a]
        count = _segment_tokens(seg)
        pos = seg_end - count
        if count == 0:
            if pos < start:
                break  # every earlier segment ends at or before pos < start
            if pos < end:
                parts.append(seg)
        else:
            if seg_end <= start:
                break
            if pos < end:
                piece = _extract(seg, pos, count, start, end)
                if piece:
                    parts.append(piece)
        seg_end = pos
    parts.reverse()
    return "".join(parts)


def _slice_full(segs: list, toks: list, start, end) -> str:
    ends = list(accumulate(toks))  # ends[i] = pos[i] + toks[i]
    # First contributing segment: the first with ends > start, or an earlier
    # zero-token (whitespace) segment sitting exactly at pos == start.
    lo = bisect_left(ends, start)
    first = bisect_right(ends, start, lo)
    if lo < first:
        first = lo if toks[lo] == 0 else lo + 1
    # One past the last contributing segment: the first with pos >= end (the
    # JS loop breaks there).  pos[i] = ends[i-1], so pos[i] >= end <=> ends[i-1] >= end.
    if end == math.inf:
        stop = len(segs)
    else:
        stop = min(len(segs), bisect_left(ends, end) + 1)
    if first >= stop:
        return ""
    # Only the first and the last contributing segments can be cut; everything
    # in between is taken whole (see extractSegmentPart).
    head = _extract(segs[first], ends[first] - toks[first], toks[first], start, end)
    if stop - first == 1:
        return head
    last = stop - 1
    tail = _extract(segs[last], ends[last] - toks[last], toks[last], start, end)
    return head + "".join(segs[first + 1:last]) + tail


def _slice(text: str, start, end, strategy: str | None = None) -> str:
    if start is None:
        start = 0
    total = None
    if start < 0 or (end is not None and end < 0):
        total = estimate_token_count(text)
    norm_start = max(0, total + start) if start < 0 else max(0, start)
    if end is None:
        norm_end = math.inf
    elif end < 0:
        norm_end = max(0, total + end)
    else:
        norm_end = end
    if norm_start >= norm_end:
        return ""

    if strategy is None:
        budget = max(_LAZY_MIN_TOKENS, len(text) // 10)
        if norm_end <= budget:
            strategy = "forward"
        elif total is not None and total - norm_start <= budget:
            strategy = "backward"
        else:
            strategy = "full"
    if strategy == "forward":
        return _slice_forward(text, norm_start, norm_end)
    if strategy == "backward":
        if total is None:
            total = estimate_token_count(text)
        return _slice_backward(text, total, norm_start, norm_end)
    segs = _split(text)
    return _slice_full(segs, _segment_token_list(segs), norm_start, norm_end)


def slice_by_tokens(text: str, start: int = 0, end: int | None = None) -> str:
    """tokenx ``sliceByTokens(text, start, end)`` with default options.

    Cuts on UTF-16 code-unit boundaries like JS, so the result may contain lone
    surrogate code points (where a surrogate pair was cut in half).
    ``end=None`` means "to the end" (JS ``undefined``).
    """
    if not text:
        return ""
    return _from_units(_slice(text, start, end))


def slice_by_tokens_safe(text: str, start: int = 0, end: int | None = None) -> str:
    """``sliceByTokensSafe`` from @mastra/core: the slice with every unpaired
    surrogate replaced by U+FFFD (always valid Unicode)."""
    out = slice_by_tokens(text, start, end)
    if out.isascii():
        return out
    # After _from_units every valid pair is one astral character, so any
    # surrogate code point left over is unpaired.
    return _SURROGATE_RE.sub("\ufffd", out)
