"""JavaScript regular expressions (V8, flags `g` or `gi`, no `u`) run on Python's `re`.

Checked against node 20 on 45,000 generated patterns and subjects (matches, columns, syntax errors).

The grep tool compiles its pattern with `new RegExp(pattern, caseSensitive ? 'g' : 'gi')` and
tests each line once. Python's `re` reads many patterns differently, so this module does not hand
the pattern to `re`: it parses it the way V8 (node 20) parses a non-unicode pattern, Annex B
included, rejects what V8 rejects with V8's own message, and writes a Python pattern in which
every construct says exactly what the JavaScript one means:

- The subject is a string of UTF-16 code units (one Python character per unit, astral
  characters as two lone surrogates), as JavaScript sees it without the `u` flag: `.` matches
  half of an emoji, `\\uD83D` matches its high half, and a match index is a UTF-16 column.
- `.`, `\\d`, `\\w`, `\\s` and their negations become explicit classes of code units: JavaScript's
  `\\d` and `\\w` are ASCII-only, its `\\s` includes U+FEFF and excludes U+0085 and U+001C-U+001F,
  and its dot excludes only \\n, \\r, U+2028 and U+2029 (Python's matches \\r and U+2028).
- `\\b` and `\\B` use the ASCII word class; `^` and `$` become `\\A` and `\\Z` (Python's `$`
  also matches before a final newline).
- With `i`, no `re.IGNORECASE`: every literal and class is closed over V8's case-equivalence
  groups (jsregex_casefold), so é matches É and ÿ matches Ÿ, while ß/ẞ, k/K (U+212A) and
  s/ſ stay apart, which Python's own folding would join.
- Annex B syntax is resolved by the parser: a lone `{`, `}` or `]` and a `{` that is not a
  quantifier (`a{`, `a{,5}`) are literal; `\\u{41}` is `u` repeated 41 times; `\\k<x>` without
  named groups is literal; `\\8` is `8`; `\\101` is octal; `\\c` without a letter is a
  backslash; `[^]` matches any unit and `[]` none; a quantified lookahead is accepted.
- Named groups become numbered ones (`(?<n>..)` and `\\k<n>`); a back reference to a group that
  has not participated matches the empty string (a Python conditional), as in JavaScript, and one
  that points forward or into its own group is empty.
- A lookbehind whose body has several widths is split into one Python lookbehind per width,
  after an unbounded quantifier on its left edge is cut to its minimum (same result).

What Python's `re` cannot express runs on _SpecMatcher instead, a direct implementation of the
spec's backtracking matcher semantics (slower; a prefilter built with `re` limits where it
starts): a lookbehind of unbounded width elsewhere than on its left edge, or of too many widths,
or holding captures it would have to split; a back reference inside a lookbehind (JavaScript
matches those right to left) or to a group inside one; a back reference to a group inside a
repeated quantifier that can complete an iteration without setting it (JavaScript clears the group
at every iteration, Python keeps the last value); any back reference under `i` (JavaScript
compares with Canonicalize, Python with its own folding). compile_js records why in
JSRegExp.fallback_reason. Not modelled: V8's "Regular expression too large" and stack limits, and
the speed of either engine on pathological patterns.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

from .regexp_casefold import groups as _casefold_groups

INF = 2147483647  # V8's RegExpTree::kInfinity (kMaxInt)
MAX_CAPTURES = 1 << 16

_WS_RANGES = [(0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
              (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF)]
_DIGIT_RANGES = [(0x30, 0x39)]
_WORD_RANGES = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
_LINE_TERMINATORS = [(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]
_WORD = "[0-9A-Z_a-z]"


class JSRegExpSyntaxError(Exception):
    """What `new RegExp` throws: message is V8's, e.g. `Invalid regular expression: /(/g: Unterminated group`."""

    def __init__(self, pattern: str, flags: str, reason: str):
        self.reason = reason
        self.message = f"Invalid regular expression: /{pattern}/{flags}: {reason}"
        super().__init__(self.message)


class UnsupportedPattern(Exception):
    """Internal: a valid JavaScript pattern whose meaning Python's `re` cannot reproduce (compile_js
    then falls back to _SpecMatcher)."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


# ---------------------------------------------------------------------------------------------
# UTF-16 code units
# ---------------------------------------------------------------------------------------------

def to_units(text: str) -> str:
    """One character per UTF-16 code unit (astral characters become two surrogates).

    The same conversion the token estimator uses (a length check and a byte shuffle), which is
    much faster than testing every character in Python."""
    from .tokenx import _to_units
    return _to_units(text)


def from_units(units: str) -> str:
    """Back to a Python string: adjacent surrogate pairs merge, lone surrogates stay."""
    if units.isascii() or not any(0xD800 <= ord(c) <= 0xDFFF for c in units):
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


# ---------------------------------------------------------------------------------------------
# Character sets as sorted, disjoint, non-adjacent ranges of code units
# ---------------------------------------------------------------------------------------------

def _normalize(ranges) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1][1] = hi
        else:
            out.append([lo, hi])
    return [(lo, hi) for lo, hi in out]


def _complement(ranges) -> list[tuple[int, int]]:
    out = []
    nxt = 0
    for lo, hi in _normalize(ranges):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= 0xFFFF:
        out.append((nxt, 0xFFFF))
    return out


@lru_cache(maxsize=1)
def _fold_tables():
    groups = _casefold_groups()
    by_unit = {m: g for g in groups for m in g}
    return groups, by_unit


def _case_close(ranges) -> list[tuple[int, int]]:
    """Every unit some member of the set is case-equivalent to (V8's non-unicode /i)."""
    return list(_case_close_cached(tuple(_normalize(ranges))))


@lru_cache(maxsize=4096)
def _case_close_cached(ranges: tuple) -> tuple:
    if ranges == ((0, 0xFFFF),):
        return ranges
    units, by_unit = _fold_index()
    extra = []
    for lo, hi in ranges:  # the folding units inside each range bring their whole group
        for u in units[bisect_left(units, lo):bisect_right(units, hi)]:
            extra.extend((m, m) for m in by_unit[u])
    return tuple(_normalize(list(ranges) + extra)) if extra else ranges


@lru_cache(maxsize=1)
def _fold_index():
    by_unit = _fold_tables()[1]
    return sorted(by_unit), by_unit


def _class_source(ranges) -> str:
    ranges = _normalize(ranges)
    if not ranges:
        return "(?!)"
    parts = []
    for lo, hi in ranges:
        parts.append(_unit(lo) if lo == hi else f"{_unit(lo)}-{_unit(hi)}")
    return "[" + "".join(parts) + "]"


def _unit(u: int) -> str:
    c = chr(u)
    if c.isascii() and c.isalnum():
        return c
    return f"\\x{u:02x}" if u < 0x100 else f"\\u{u:04x}"


# ---------------------------------------------------------------------------------------------
# The parser (V8's RegExpParserImpl for a non-unicode pattern)
# ---------------------------------------------------------------------------------------------
# Nodes are tuples:
#   ("char", unit) ("set", ranges, negated) ("seq", [nodes]) ("alt", [nodes]) ("group", node)
#   ("capture", index, node) ("look", behind, negative, node) ("backref", index)
#   ("named_ref", name) ("assert", "^" | "$" | "b" | "B") ("quant", node, min, max, greedy)
#   ("empty",)

class _Group:
    __slots__ = ("kind", "index", "name", "alts", "terms", "behind", "negative")

    def __init__(self, kind: str, index: int = 0, name: str | None = None,
                 behind: bool = False, negative: bool = False):
        self.kind = kind          # "top", "capture", "group", "look"
        self.index = index
        self.name = name
        self.behind = behind
        self.negative = negative
        self.alts: list[list] = []
        self.terms: list = []


def _is_dec(c) -> bool:
    return c is not None and "0" <= c <= "9"


def _hex(c) -> int:
    if c is None:
        return -1
    if "0" <= c <= "9":
        return ord(c) - 48
    if "a" <= c <= "f":
        return ord(c) - 87
    if "A" <= c <= "F":
        return ord(c) - 55
    return -1


def _id_start(cp: int) -> bool:
    c = chr(cp)
    return c in "$_" or c.isidentifier()


def _id_part(cp: int) -> bool:
    c = chr(cp)
    return c in "$_\u200c\u200d" or ("a" + c).isidentifier()


class _Parser:
    def __init__(self, units: str, pattern: str, flags: str):
        self.s = units
        self.n = len(units)
        self.pos = 0
        self.pattern = pattern
        self.flags = flags
        self.captures_started = 0
        self.named: dict[str, int] = {}
        self.named_refs: list[str] = []
        self._scanned: tuple[int, bool] | None = None

    def error(self, reason: str):
        raise JSRegExpSyntaxError(self.pattern, self.flags, reason)

    def cur(self, k: int = 0):
        i = self.pos + k
        return self.s[i] if i < self.n else None

    # -- a scan ahead for the capture count and named groups (V8's ScanForCaptures) ------------
    def scan(self) -> tuple[int, bool]:
        if self._scanned is None:
            s, n, i = self.s, self.n, 0
            count, named = 0, False
            while i < n:
                c = s[i]
                i += 1
                if c == "\\":
                    i += 1
                elif c == "[":
                    while i < n:
                        d = s[i]
                        i += 1
                        if d == "\\":
                            i += 1
                        elif d == "]":
                            break
                elif c == "(":
                    if i < n and s[i] == "?":
                        i += 1
                        if i >= n or s[i] != "<":
                            continue
                        i += 1
                        if i < n and s[i] in "=!":
                            continue
                        named = True
                    count += 1
            self._scanned = (count, named)
        return self._scanned

    def has_named_captures(self) -> bool:
        return bool(self.named) or self.scan()[1]

    # -- the disjunction loop ------------------------------------------------------------------
    def parse(self):
        stack: list[_Group] = []
        state = _Group("top")
        while True:
            c = self.cur()
            if c is None:
                if state.kind != "top":
                    self.error("Unterminated group")
                break
            if c == "|":
                self.pos += 1
                state.alts.append(state.terms)
                state.terms = []
                continue
            if c == ")":
                if state.kind == "top":
                    self.error("Unmatched ')'")
                self.pos += 1
                body = _disjunction(state.alts + [state.terms])
                closed = state
                state = stack.pop()
                if closed.kind == "capture":
                    if closed.name is not None:
                        if closed.name in self.named:
                            self.error("Duplicate capture group name")
                        self.named[closed.name] = closed.index
                    atom = ("capture", closed.index, body)
                elif closed.kind == "group":
                    atom = ("group", body)
                else:
                    atom = ("look", closed.behind, closed.negative, body)
                self.add_atom(state, atom, lookbehind=closed.kind == "look" and closed.behind)
                continue
            if c == "^" or c == "$":
                self.pos += 1
                state.terms.append(("assert", c))
                continue
            if c == "(":
                stack.append(state)
                state = self.open_group(stack)
                continue
            if c in "*+?":
                self.error("Nothing to repeat")
            if c == "{":
                if self.interval() is not None:
                    self.error("Nothing to repeat")
                self.pos += 1
                self.add_atom(state, ("char", 0x7B))
                continue
            if c == ".":
                self.pos += 1
                self.add_atom(state, ("set", _LINE_TERMINATORS, True))
                continue
            if c == "[":
                self.add_atom(state, self.parse_class())
                continue
            if c == "\\":
                atom = self.atom_escape(state, stack)
                if atom is None:
                    continue  # an assertion: nothing to quantify
                self.add_atom(state, atom)
                continue
            self.pos += 1
            self.add_atom(state, ("char", ord(c)))
        body = _disjunction(state.alts + [state.terms])
        for name in self.named_refs:
            if name not in self.named:
                self.error("Invalid named capture referenced")
        return _resolve_names(body, self.named)

    def add_atom(self, state: _Group, atom, lookbehind: bool = False) -> None:
        q = self.quantifier()
        if q is None:
            state.terms.append(atom)
            return
        if lookbehind:
            self.error("Invalid quantifier")
        mn, mx, greedy = q
        state.terms.append(("quant", atom, mn, mx, greedy))

    def quantifier(self):
        c = self.cur()
        if c == "*":
            mn, mx = 0, INF
            self.pos += 1
        elif c == "+":
            mn, mx = 1, INF
            self.pos += 1
        elif c == "?":
            mn, mx = 0, 1
            self.pos += 1
        elif c == "{":
            r = self.interval()
            if r is None:
                return None
            mn, mx, end = r
            if mx < mn:
                self.error("numbers out of order in {} quantifier")
            self.pos = end
        else:
            return None
        greedy = True
        if self.cur() == "?":
            greedy = False
            self.pos += 1
        return mn, mx, greedy

    def interval(self):
        """V8's ParseIntervalQuantifier at `{`: (min, max, end) or None (not a quantifier)."""
        s, n = self.s, self.n
        i = self.pos + 1

        def number(i):
            value = 0
            while i < n and _is_dec(s[i]):
                d = ord(s[i]) - 48
                if value > (INF - d) // 10:
                    while i < n and _is_dec(s[i]):
                        i += 1
                    return INF, i
                value = value * 10 + d
                i += 1
            return value, i

        if i >= n or not _is_dec(s[i]):
            return None
        mn, i = number(i)
        if i < n and s[i] == "}":
            return mn, mn, i + 1
        if i < n and s[i] == ",":
            i += 1
            if i < n and s[i] == "}":
                return mn, INF, i + 1
            if i >= n or not _is_dec(s[i]):
                return None
            mx, i = number(i)
            if i < n and s[i] == "}":
                return mn, mx, i + 1
        return None

    def open_group(self, stack) -> _Group:
        self.pos += 1  # past "("
        if self.cur() == "?":
            nxt = self.cur(1)
            if nxt == ":":
                self.pos += 2
                return _Group("group")
            if nxt in ("=", "!"):
                self.pos += 2
                return _Group("look", behind=False, negative=nxt == "!")
            if nxt == "<":
                after = self.cur(2)
                if after in ("=", "!"):
                    self.pos += 3
                    return _Group("look", behind=True, negative=after == "!")
                self.pos += 2  # now just after "<"
                self.captures_started += 1
                if self.captures_started >= MAX_CAPTURES:
                    self.error("Too many captures")
                index = self.captures_started
                name = self.group_name()
                return _Group("capture", index=index, name=name)
            self.error("Invalid group")
        if self.captures_started >= MAX_CAPTURES:
            self.error("Too many captures")
        self.captures_started += 1
        return _Group("capture", index=self.captures_started)

    def group_name(self) -> str:
        """RegExpIdentifierName then `>` (V8 reads it in unicode mode); pos is after `<`."""
        name: list[int] = []
        at_start = True
        while True:
            c = self.cur()
            if c is None:
                self.error("Invalid capture group name")
            if c == "\\" and self.cur(1) == "u":
                self.pos += 2
                cp = self.unicode_escape_in_name()
                if cp is None:
                    self.error("Invalid Unicode escape")
            else:
                cp = ord(c)
                self.pos += 1
                if 0xD800 <= cp <= 0xDBFF and self.cur() is not None and 0xDC00 <= ord(self.cur()) <= 0xDFFF:
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (ord(self.cur()) - 0xDC00)
                    self.pos += 1
            if cp == 0x5C:
                self.error("Invalid capture group name")
            if at_start:
                if not _id_start(cp):
                    self.error("Invalid capture group name")
                name.append(cp)
                at_start = False
            elif cp == 0x3E:
                break
            elif _id_part(cp):
                name.append(cp)
            else:
                self.error("Invalid capture group name")
        return to_units("".join(chr(cp) for cp in name))

    def unicode_escape_in_name(self):
        if self.cur() == "{":
            i = self.pos + 1
            value = 0
            digits = 0
            while _hex(self.s[i] if i < self.n else None) >= 0:
                value = value * 16 + _hex(self.s[i])
                if value > 0x10FFFF:
                    return None
                i += 1
                digits += 1
            if digits == 0 or i >= self.n or self.s[i] != "}":
                return None
            self.pos = i + 1
            return value
        value = self.hex_digits(4)
        if value is None:
            return None
        if 0xD800 <= value <= 0xDBFF and self.cur() == "\\" and self.cur(1) == "u":
            save = self.pos
            self.pos += 2
            low = self.hex_digits(4)
            if low is not None and 0xDC00 <= low <= 0xDFFF:
                return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            self.pos = save
        return value

    def hex_digits(self, count: int):
        value = 0
        for k in range(count):
            d = _hex(self.cur(k))
            if d < 0:
                return None
            value = value * 16 + d
        self.pos += count
        return value

    # -- escapes -------------------------------------------------------------------------------
    def atom_escape(self, state: _Group, stack):
        nxt = self.cur(1)
        if nxt is None:
            self.error("\\ at end of pattern")
        if nxt in ("b", "B"):
            self.pos += 2
            state.terms.append(("assert", nxt))
            return None
        if nxt in "dDsSwW":
            self.pos += 2
            return _escape_class(nxt)
        if "1" <= nxt <= "9":
            index = self.backreference_index()
            if index is not None:
                if any(g.kind == "capture" and g.index == index for g in stack[1:] + [state]):
                    return ("empty",)
                return ("backref", index)
            if nxt in ("8", "9"):
                self.pos += 2
                return ("char", ord(nxt))
            self.pos += 1
            return ("char", self.octal())
        if nxt == "0":
            self.pos += 1
            return ("char", self.octal())
        if nxt == "k" and self.has_named_captures():
            self.pos += 2
            if self.cur() != "<":
                self.error("Invalid named reference")
            self.pos += 1
            name = self.group_name()
            if any(g.kind == "capture" and g.name == name for g in stack[1:] + [state]):
                return ("empty",)
            self.named_refs.append(name)
            return ("named_ref", name)
        if nxt in ("p", "P"):
            self.pos += 2
            return ("char", ord(nxt))
        return ("char", self.character_escape(in_class=False))

    def backreference_index(self):
        """V8's ParseBackReferenceIndex at `\\` followed by 1-9: the index, or None (pos kept)."""
        i = self.pos + 1
        value = 0
        while i < self.n and _is_dec(self.s[i]):
            value = value * 10 + ord(self.s[i]) - 48
            if value > MAX_CAPTURES:
                return None
            i += 1
        if value > self.captures_started and value > self.scan()[0]:
            return None
        self.pos = i
        return value

    def octal(self) -> int:
        """Annex B LegacyOctalEscapeSequence; pos is on the first digit."""
        value = ord(self.s[self.pos]) - 48
        self.pos += 1
        c = self.cur()
        if c is not None and "0" <= c <= "7":
            value = value * 8 + ord(c) - 48
            self.pos += 1
            c = self.cur()
            if value < 32 and c is not None and "0" <= c <= "7":
                value = value * 8 + ord(c) - 48
                self.pos += 1
        return value

    def character_escape(self, in_class: bool) -> int:
        """V8's ParseCharacterEscape at `\\` (not a class escape, not at the end)."""
        self.pos += 1  # past "\"
        c = self.cur()
        simple = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
        if c in simple:
            self.pos += 1
            return simple[c]
        if c == "c":
            letter = self.cur(1)
            if letter is not None and ("a" <= letter <= "z" or "A" <= letter <= "Z"):
                self.pos += 2
                return ord(letter) & 0x1F
            if in_class and letter is not None and (_is_dec(letter) or letter == "_"):
                self.pos += 2
                return ord(letter) & 0x1F
            return 0x5C  # the backslash alone; "c" is read next as itself
        if c == "0" and not _is_dec(self.cur(1)):
            self.pos += 1
            return 0
        if c is not None and "0" <= c <= "7":
            return self.octal()
        if c == "x":
            self.pos += 1
            value = self.hex_digits(2)
            return 0x78 if value is None else value
        if c == "u":
            self.pos += 1
            value = self.hex_digits(4)
            return 0x75 if value is None else value
        if c == "k" and in_class and self.has_named_captures():
            self.error("Invalid escape")
        self.pos += 1
        return ord(c)

    def parse_class(self):
        self.pos += 1  # past "["
        negated = False
        if self.cur() == "^":
            negated = True
            self.pos += 1
        ranges: list[tuple[int, int]] = []
        while self.cur() is not None and self.cur() != "]":
            char1, set1 = self.class_atom()
            if self.cur() == "-":
                self.pos += 1
                if self.cur() is None:
                    break
                if self.cur() == "]":
                    if set1 is None:
                        ranges.append((char1, char1))
                    else:
                        ranges.extend(set1)
                    ranges.append((0x2D, 0x2D))
                    break
                char2, set2 = self.class_atom()
                if set1 is not None or set2 is not None:
                    for ch, st in ((char1, set1), (0x2D, None), (char2, set2)):
                        if st is None:
                            ranges.append((ch, ch))
                        else:
                            ranges.extend(st)
                    continue
                if char1 > char2:
                    self.error("Range out of order in character class")
                ranges.append((char1, char2))
            elif set1 is None:
                ranges.append((char1, char1))
            else:
                ranges.extend(set1)
        if self.cur() is None:
            self.error("Unterminated character class")
        self.pos += 1
        return ("set", _normalize(ranges), negated)

    def class_atom(self):
        """(unit, None) for a single unit, (None, ranges) for \\d \\s \\w and their negations."""
        c = self.cur()
        if c != "\\":
            self.pos += 1
            return ord(c), None
        nxt = self.cur(1)
        if nxt is None:
            self.error("\\ at end of pattern")
        if nxt == "b":
            self.pos += 2
            return 0x08, None
        if nxt in "dDsSwW":
            self.pos += 2
            node = _escape_class(nxt)
            return None, (_complement(node[1]) if node[2] else node[1])
        return self.character_escape(in_class=True), None


def _escape_class(letter: str):
    base = {"d": _DIGIT_RANGES, "s": _WS_RANGES, "w": _WORD_RANGES}[letter.lower()]
    return ("set", base, letter.isupper())


def _disjunction(alternatives):
    alts = [("seq", terms) if len(terms) != 1 else terms[0] for terms in alternatives]
    alts = [a if a != ("seq", []) else ("empty",) for a in alts]
    return alts[0] if len(alts) == 1 else ("alt", alts)


def _resolve_names(node, named):
    kind = node[0]
    if kind == "named_ref":
        return ("backref", named[node[1]])
    if kind in ("seq", "alt"):
        return (kind, [_resolve_names(c, named) for c in node[1]])
    if kind == "group":
        return ("group", _resolve_names(node[1], named))
    if kind == "capture":
        return ("capture", node[1], _resolve_names(node[2], named))
    if kind == "look":
        return ("look", node[1], node[2], _resolve_names(node[3], named))
    if kind == "quant":
        return ("quant", _resolve_names(node[1], named), *node[2:])
    return node


# ---------------------------------------------------------------------------------------------
# Checks for what Python cannot reproduce
# ---------------------------------------------------------------------------------------------

def _walk(node, visit, context=()):
    visit(node, context)
    kind = node[0]
    if kind in ("seq", "alt"):
        for child in node[1]:
            _walk(child, visit, context + (node,))
    elif kind == "group":
        _walk(node[1], visit, context + (node,))
    elif kind == "capture":
        _walk(node[2], visit, context + (node,))
    elif kind == "look":
        _walk(node[3], visit, context + (node,))
    elif kind == "quant":
        _walk(node[1], visit, context + (node,))


def _sets_group(node, index: int) -> bool:
    """Whether every successful match of node sets capture `index`."""
    kind = node[0]
    if kind == "capture":
        return node[1] == index or _sets_group(node[2], index)
    if kind == "seq":
        return any(_sets_group(c, index) for c in node[1])
    if kind == "alt":
        return all(_sets_group(c, index) for c in node[1])
    if kind == "group":
        return _sets_group(node[1], index)
    if kind == "quant":
        return node[2] >= 1 and _sets_group(node[1], index)
    if kind == "look":
        return not node[2] and _sets_group(node[3], index)
    return False


def _check_backrefs(root) -> None:
    refs: set[int] = set()
    places: dict[int, tuple] = {}

    def visit(node, context):
        if node[0] == "backref":
            if any(c[0] == "look" and c[1] for c in context):
                raise UnsupportedPattern("a back reference inside a lookbehind (JavaScript matches it right to left)")
            refs.add(node[1])
        elif node[0] == "capture":
            places[node[1]] = context
    _walk(root, visit)
    for index in refs:
        for outer in places.get(index, ()):
            if outer[0] == "look" and outer[1]:
                raise UnsupportedPattern("a back reference to a group inside a lookbehind")
            if outer[0] == "quant" and outer[3] > 1 and not _sets_group(outer[1], index):
                raise UnsupportedPattern("a back reference to a group that a repeated quantifier can leave unset "
                                         "(JavaScript clears it at every iteration)")


# ---------------------------------------------------------------------------------------------
# Python source
# ---------------------------------------------------------------------------------------------

_MAX_LOOKBEHIND_VARIANTS = 256


class _Emitter:
    def __init__(self, ignore_case: bool, capture_count: int, multiline: bool = False):
        self.ignore_case = ignore_case
        self.capture_count = capture_count
        self.multiline = multiline  # ^ and $ at every line's edges, for a search over a whole text
        self.opened: set[int] = set()

    def emit(self, node) -> str:
        kind = node[0]
        if kind == "empty":
            return ""
        if kind == "char":
            u = node[1]
            if self.ignore_case:
                group = _fold_tables()[1].get(u)
                if group:
                    return _class_source([(m, m) for m in group])
            return _unit(u) if (u > 0x7F or chr(u).isalnum()) else re.escape(chr(u))
        if kind == "set":
            ranges = node[1]
            if self.ignore_case:
                ranges = _case_close(ranges)
            return _class_source(_complement(ranges) if node[2] else ranges)
        if kind == "seq":
            return "".join(self.emit(c) for c in node[1])
        if kind == "alt":
            return "(?:" + "|".join(self.emit(c) for c in node[1]) + ")"
        if kind == "group":
            return "(?:" + self.emit(node[1]) + ")"
        if kind == "capture":
            body = self.emit(node[2])
            self.opened.add(node[1])
            return f"(?P<g{node[1]}>" + body + ")"
        if kind == "backref":
            index = node[1]
            if index not in self.opened:
                return ""  # not captured yet at this point of a left-to-right match: empty
            ref = f"(?P=g{index})"
            if self.ignore_case:
                ref = f"(?i:{ref})"
            return f"(?(g{index}){ref}|)"
        if kind == "assert":
            if self.multiline and node[1] in "^$":
                return "(?m:" + node[1] + ")"  # Python's multiline ^/$: after/before any "\n"
            return {
                "^": r"\A",
                "$": r"\Z",
                # Python's ASCII-scoped \b uses JavaScript's word class [0-9A-Z_a-z], and is far
                # faster than spelling the boundary out with lookarounds.
                "b": r"(?a:\b)",
                # Python's \B never matches in an empty string; JavaScript's does (an empty line).
                "B": r"(?:(?a:\B)|\A\Z)",
            }[node[1]]
        if kind == "look":
            _, behind, negative, body = node
            if behind:
                return self.lookbehind(body, negative)
            return ("(?!" if negative else "(?=") + self.emit(body) + ")"
        if kind == "quant":
            _, atom, mn, mx, greedy = node
            if atom[0] == "look" and not atom[1]:
                # Annex B quantified lookahead: an iteration that matches nothing ends the loop,
                # so it runs once when required and never otherwise (its groups stay numbered).
                inner = self.emit(atom)
                return inner if mn > 0 else "(?:" + inner + "){0}"
            inner = "(?:" + self.emit(atom) + ")"
            if (mn, mx) == (0, INF):
                q = "*"
            elif (mn, mx) == (1, INF):
                q = "+"
            elif (mn, mx) == (0, 1):
                q = "?"
            elif mx == INF:
                q = f"{{{mn},}}"
            elif mn == mx:
                q = f"{{{mn}}}"
            else:
                q = f"{{{mn},{mx}}}"
            return inner + q + ("" if greedy else "?")
        raise AssertionError(node)

    def lookbehind(self, body, negative: bool) -> str:
        body = _trim_left(body)
        lo, hi = _width(body)
        if lo == hi:
            return ("(?<!" if negative else "(?<=") + self.emit(body) + ")"
        if hi is None:
            raise UnsupportedPattern("a lookbehind of unbounded length")
        if _has_capture(body):
            raise UnsupportedPattern("a capture group inside a lookbehind of several lengths")
        variants = _variants(body)
        if variants is None:
            raise UnsupportedPattern("a lookbehind of too many lengths")
        by_width: dict[int, list[str]] = {}
        for v in variants:
            by_width.setdefault(_width(v)[0], []).append(self.emit(v))
        if negative:
            return "".join("(?<!" + "|".join(vs) + ")" for _, vs in sorted(by_width.items()))
        return "(?:" + "|".join("(?<=" + "|".join(vs) + ")" for _, vs in sorted(by_width.items())) + ")"


def _trim_left(node):
    """A lookbehind body with its leftmost unbounded quantifier X{n,} cut to X{n}.

    A lookbehind only asks whether some suffix of the text before the position matches, and if
    one matches with more than n copies of X on its left edge, the shorter suffix with exactly n
    copies matches too (every other part sits at the same positions). So `(?<=\\s*foo)` is
    `(?<=foo)` and `(?<=a+b)` is `(?<=ab)`. Not done through captures, whose values would change."""
    kind = node[0]
    if kind == "quant":
        _, atom, mn, mx, greedy = node
        if _has_capture(atom) or (atom[0] == "look" and not atom[1]):
            return node
        if mx == INF:
            return ("quant", _trim_left(atom), mn, mn, greedy)
        return node
    if kind == "seq" and node[1]:
        return ("seq", [_trim_left(node[1][0])] + node[1][1:])
    if kind == "alt":
        return ("alt", [_trim_left(c) for c in node[1]])
    if kind == "group":
        return ("group", _trim_left(node[1]))
    return node


def _width(node) -> tuple[int, int | None]:
    kind = node[0]
    if kind in ("char", "set"):
        return 1, 1
    if kind in ("empty", "assert", "look"):
        return 0, 0
    if kind == "seq":
        lo, hi = 0, 0
        for c in node[1]:
            a, b = _width(c)
            lo += a
            hi = None if hi is None or b is None else hi + b
        return lo, hi
    if kind == "alt":
        widths = [_width(c) for c in node[1]]
        lo = min(w[0] for w in widths)
        hi = None if any(w[1] is None for w in widths) else max(w[1] for w in widths)
        return lo, hi
    if kind == "group":
        return _width(node[1])
    if kind == "capture":
        return _width(node[2])
    if kind == "quant":
        a, b = _width(node[1])
        mx = node[3]
        if b is None or (mx == INF and b > 0):
            return a * node[2], None
        return a * node[2], b * (0 if mx == INF else mx)
    if kind == "backref":
        return 0, None
    raise AssertionError(node)


def _has_capture(node) -> bool:
    found = []
    _walk(node, lambda n, c: found.append(1) if n[0] == "capture" else None)
    return bool(found)


def _variants(node):
    """Fixed-width alternatives whose union is node, or None past the limit."""
    kind = node[0]
    if kind in ("char", "set", "empty", "assert", "look"):
        return [node]
    if kind == "group":
        return _variants(node[1])
    if kind == "alt":
        out = []
        for c in node[1]:
            vs = _variants(c)
            if vs is None:
                return None
            out.extend(vs)
        return out if len(out) <= _MAX_LOOKBEHIND_VARIANTS else None
    if kind == "seq":
        out = [("seq", [])]
        for c in node[1]:
            vs = _variants(c)
            if vs is None:
                return None
            out = [("seq", prefix[1] + [v]) for prefix in out for v in vs]
            if len(out) > _MAX_LOOKBEHIND_VARIANTS:
                return None
        return out
    if kind == "quant":
        _, atom, mn, mx, _greedy = node
        if _width(atom) == (0, 0):
            return [node]  # zero-width (a quantified lookahead): already one fixed width
        if mx == INF:
            return None
        out = []
        for count in range(mn, mx + 1):
            vs = _variants(("seq", [atom] * count))
            if vs is None:
                return None
            out.extend(vs)
            if len(out) > _MAX_LOOKBEHIND_VARIANTS:
                return None
        return out
    return None


# ---------------------------------------------------------------------------------------------
# The fallback: ECMAScript's own matcher semantics (22.2.2), for what `re` cannot express
# ---------------------------------------------------------------------------------------------

class _SpecMatcher:
    """A direct, backtracking implementation of the spec's Matcher/Continuation semantics.

    Slow, but exact where the translation to `re` is not: lookbehind of any length (matched right
    to left, back references in it included), captures cleared at every iteration of a
    quantifier, empty-iteration checks, and back references compared with Canonicalize under /i.
    A state is (endIndex, captures) with captures an immutable tuple of (start, end) or None."""

    def __init__(self, tree, ignore_case: bool, capture_count: int):
        self.ignore_case = ignore_case
        self.ncap = capture_count
        self.root = self.compile(tree, True)

    def set_test(self, ranges, negated: bool):
        if self.ignore_case:
            ranges = _case_close(ranges)
        ranges = _complement(ranges) if negated else _normalize(ranges)
        starts = [lo for lo, _ in ranges]

        def test(u: int) -> bool:
            i = bisect_right(starts, u) - 1
            return i >= 0 and ranges[i][1] >= u
        return test

    def canon(self, u: int) -> int:
        if not self.ignore_case:
            return u
        group = _fold_tables()[1].get(u)
        return group[0] if group else u

    def compile(self, node, forward: bool):
        kind = node[0]
        if kind == "empty":
            return lambda text, x, c: c(x)
        if kind in ("char", "set"):
            test = self.set_test([(node[1], node[1])], False) if kind == "char" else self.set_test(node[1], node[2])

            def char_matcher(text, x, c):
                e, caps = x
                f = e + 1 if forward else e - 1
                if f < 0 or f > len(text):
                    return None
                if not test(ord(text[min(e, f)])):
                    return None
                return c((f, caps))
            return char_matcher
        if kind == "seq":
            terms = [self.compile(t, forward) for t in node[1]]
            if not forward:
                terms.reverse()
            if not terms:
                return lambda text, x, c: c(x)

            def seq_matcher(text, x, c, i=0):
                if i == len(terms):
                    return c(x)
                return terms[i](text, x, lambda y: seq_matcher(text, y, c, i + 1))
            return seq_matcher
        if kind == "alt":
            branches = [self.compile(b, forward) for b in node[1]]

            def alt_matcher(text, x, c):
                for b in branches:
                    r = b(text, x, c)
                    if r is not None:
                        return r
                return None
            return alt_matcher
        if kind == "group":
            return self.compile(node[1], forward)
        if kind == "assert":
            what = node[1]

            def word(text, i):
                return 0 <= i < len(text) and (text[i].isascii() and (text[i].isalnum() or text[i] == "_"))

            def assert_matcher(text, x, c):
                e = x[0]
                if what == "^":
                    ok = e == 0
                elif what == "$":
                    ok = e == len(text)
                else:
                    boundary = word(text, e - 1) != word(text, e)
                    ok = boundary if what == "b" else not boundary
                return c(x) if ok else None
            return assert_matcher
        if kind == "look":
            _, behind, negative, body = node
            m = self.compile(body, not behind)

            def look_matcher(text, x, c):
                r = m(text, x, lambda y: y)
                if negative:
                    return None if r is not None else c(x)
                if r is None:
                    return None
                return c((x[0], r[1]))
            return look_matcher
        if kind == "capture":
            index = node[1]
            m = self.compile(node[2], forward)

            def capture_matcher(text, x, c):
                def d(y):
                    span = (x[0], y[0]) if forward else (y[0], x[0])
                    caps = y[1][:index] + (span,) + y[1][index + 1:]
                    return c((y[0], caps))
                return m(text, x, d)
            return capture_matcher
        if kind == "backref":
            index = node[1]

            def backref_matcher(text, x, c):
                e, caps = x
                span = caps[index]
                if span is None:
                    return c(x)
                length = span[1] - span[0]
                f = e + length if forward else e - length
                if f < 0 or f > len(text):
                    return None
                g = min(e, f)
                for k in range(length):
                    if self.canon(ord(text[span[0] + k])) != self.canon(ord(text[g + k])):
                        return None
                return c((f, caps))
            return backref_matcher
        if kind == "quant":
            _, atom, mn, mx, greedy = node
            m = self.compile(atom, forward)
            inner: list[int] = []
            _walk(atom, lambda n, ctx: inner.append(n[1]) if n[0] == "capture" else None)

            def repeat(text, x, c, lo, hi):
                if hi == 0:
                    return c(x)

                def d(y):
                    if lo == 0 and y[0] == x[0]:
                        return None
                    return repeat(text, y, c, 0 if lo == 0 else lo - 1, hi if hi == INF else hi - 1)
                caps = x[1]
                if inner:
                    caps = tuple(None if k in inner else v for k, v in enumerate(caps))
                xr = (x[0], caps)
                if lo != 0:
                    return m(text, xr, d)
                if not greedy:
                    z = c(x)
                    return z if z is not None else m(text, xr, d)
                z = m(text, xr, d)
                return z if z is not None else c(x)
            return lambda text, x, c: repeat(text, x, c, mn, mx)
        raise AssertionError(node)

    def search(self, units: str, prefilter: re.Pattern | None = None) -> int | None:
        """The first index a match starts at. prefilter, when given, is a Python pattern that
        matches (at least) wherever this one can start: only its match starts are tried."""
        import sys
        limit = sys.getrecursionlimit()
        needed = 50 * (len(units) + 10) + 1000
        if needed > limit:
            sys.setrecursionlimit(needed)
        empty = (None,) * (self.ncap + 1)
        start = 0
        while start <= len(units):
            if prefilter is not None:
                m = prefilter.search(units, start)
                if m is None:
                    return None
                start = m.start()
            if self.root(units, (start, empty), lambda y: y) is not None:
                return start
            start += 1
        return None


# ---------------------------------------------------------------------------------------------
# The compiled expression
# ---------------------------------------------------------------------------------------------

class JSRegExp:
    """A compiled pattern: search(units) gives the index (in UTF-16 units) of the first match.

    Backed by Python's `re` (python_source) or, for what it cannot express, by _SpecMatcher
    (python_source None, fallback_reason saying why)."""

    def __init__(self, pattern: str, flags: str, python_source: str | None, spec=None,
                 fallback_reason: str | None = None, prefilter: str | None = None,
                 tree=None, capture_count: int = 0):
        self.source = pattern
        self.flags = flags
        self.tree = tree                  # the parsed pattern (regexp_lines reads it)
        self.capture_count = capture_count
        self.ignore_case = "i" in flags
        self.python_source = python_source
        self.fallback_reason = fallback_reason
        self._re = re.compile(python_source, re.DOTALL) if python_source is not None else None
        self._spec = spec
        self._prefilter = re.compile(prefilter, re.DOTALL) if prefilter is not None else None

    def search(self, units: str) -> int | None:
        if self._re is None:
            return self._spec.search(units, self._prefilter)
        m = self._re.search(units)
        return None if m is None else m.start()


def compile_js(pattern: str, flags: str = "g") -> JSRegExp:
    """`new RegExp(pattern, flags)` for flags `g` or `gi`.

    Raises JSRegExpSyntaxError with V8's message for an invalid pattern."""
    if flags not in ("g", "gi"):
        raise ValueError(f"unsupported flags {flags!r}")
    units = to_units(pattern)
    parser = _Parser(units, pattern, flags)
    tree = parser.parse()
    ignore_case = "i" in flags
    try:
        _check_backrefs(tree)
        if ignore_case and _has_backref(tree):
            raise UnsupportedPattern("a back reference under /i (Python folds case differently)")
        source = _Emitter(ignore_case, parser.captures_started).emit(tree)
        try:
            return JSRegExp(pattern, flags, source, tree=tree, capture_count=parser.captures_started)
        except (re.error, OverflowError, RecursionError) as exc:
            raise UnsupportedPattern(f"Python's re cannot compile the translation ({exc})") from None
    except UnsupportedPattern as exc:
        spec = _SpecMatcher(tree, ignore_case, parser.captures_started)
        return JSRegExp(pattern, flags, None, spec, exc.reason, _prefilter_source(tree, ignore_case),
                        tree=tree, capture_count=parser.captures_started)


def _prefilter_source(tree, ignore_case: bool) -> str | None:
    """The pattern without its lookbehinds, for Python's `re`: it matches wherever the pattern
    can start (a lookbehind is taken as true, or as false under a negative lookahead, so only
    conditions are removed), and the slow matcher runs only at its match starts. None when that
    does not hold or cannot be built (back references)."""
    if _has_backref(tree):
        return None

    never = ("look", False, True, ("empty",))

    def strip(node, positive: bool):
        # Where a match of the node is wanted (positive) a lookbehind becomes "always true";
        # inside a negative lookahead, where a match is what fails, it becomes "never true".
        kind = node[0]
        if kind == "look" and node[1]:
            return ("empty",) if positive else never
        if kind in ("seq", "alt"):
            return (kind, [strip(c, positive) for c in node[1]])
        if kind == "group":
            return ("group", strip(node[1], positive))
        if kind == "capture":
            return ("capture", node[1], strip(node[2], positive))
        if kind == "look":
            return ("look", node[1], node[2], strip(node[3], positive != node[2]))
        if kind == "quant":
            return ("quant", strip(node[1], positive), *node[2:])
        return node
    try:
        source = _Emitter(ignore_case, 0).emit(strip(tree, True))
        re.compile(source, re.DOTALL)
        return source
    except (UnsupportedPattern, re.error, OverflowError, RecursionError):
        return None


def _has_backref(node) -> bool:
    found = []
    _walk(node, lambda n, c: found.append(1) if n[0] == "backref" else None)
    return bool(found)
