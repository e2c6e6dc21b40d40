"""The lines of a text that a JavaScript RegExp matches, found without testing every line.

The grep tool splits each file on "\\n" and runs `regex.exec(line)` once per line; regexp.py runs
one such test exactly as V8 does. Doing it line by line costs one Python call per line, so this
module gets the same (line, column) answers from a few calls per file:

- Required literals. Strings one of which every match contains (ASCII only, so the file's UTF-8
  bytes hold them exactly where its text does; lowered under /i, where an ASCII character is only
  equivalent to ASCII characters). A file whose bytes hold none cannot match: it is not decoded.
- Exact whole-text search. When nothing in the pattern (lookarounds and back references included)
  can match a "\\n", no match crosses a line end, and the line's ends look the same from inside
  the whole text as in the line alone: `^`/`$` become multiline ones, `\\b` sees "\\n" as a non-word
  character as it sees the line's edge, and a character test on "\\n" fails as it fails past the
  end of the line. So the first whole-text match at or after a line's start is the first match of
  the first line from there that has one: note it, go on at the next line.
- A whole-text lower bound. When something can match a "\\n" but no negative lookaround can, a
  match in a line is also a whole-text match at the same place (the same path through the pattern
  succeeds; only negative lookarounds can turn from true to false when more text is visible). So
  no line before the next whole-text match can match, and only that match's line is tested.
- Otherwise (and for the patterns regexp.py runs on its own matcher) every line holding a required
  literal, or every line, is tested.
- RE2 (google-re2), where the pattern can be written for it (no lookaround, no back reference),
  first answers whether a file can match at all, with a DFA that is several times faster than
  Python's backtracking `re` on patterns without a long literal. It sees the same code points
  (the pattern's classes, closed over V8's /i groups, written out as ranges), so its "no" is exact:
  any line's match is a match of the whole text. A text with an astral character is left to `re`
  when the pattern can match half of one.

The text is searched as code points rather than UTF-16 units when nothing in the pattern can match
half of a surrogate pair and every match is at least one unit long: an astral character is then
matched by nothing in either form and no match starts between its halves, so the matches are the
same, and only a shown line's column is counted in UTF-16 units.
"""
from __future__ import annotations

import re

try:
    import re2
except ImportError:  # optional: without it only Python's re searches (same answers, slower)
    re2 = None

from .regexp import (INF, JSRegExp, _case_close, _complement, _Emitter, _fold_tables, _normalize, _walk, _width,
                     to_units)

_MAX_EXACT = 16      # strings in a set of exact literals (alternatives multiply)
_MAX_LITERAL = 64    # characters in one literal


class LineSearch:
    """How one compiled pattern is searched over whole files (see the module docstring)."""

    def __init__(self, rx: JSRegExp):
        self.rx = rx
        tree, ic = rx.tree, rx.ignore_case
        literals = _best([_literals(tree, ic)[1]]) if tree is not None else None
        self.literals = tuple(sorted(s.encode() for s in literals)) if literals else None
        self.whole = None        # the pattern with multiline ^/$ for the whole text
        self.exact = False       # whole-text matches are the answers (else a lower bound)
        # Code points would do, unless the pattern can match a surrogate, or match nothing at all
        # (an empty match can sit between the two halves of an astral character).
        self.units_only = (tree is None or _width(tree)[0] == 0
                           or _can_match(tree, ic, lambda lo, hi: lo <= 0xDFFF and hi >= 0xD800))
        if rx._re is not None:
            newline = _can_match(tree, ic, lambda lo, hi: lo <= 0x0A <= hi)
            if not newline or not _negative_look_can_match_newline(tree, ic):
                try:
                    source = _Emitter(ic, rx.capture_count, multiline=True).emit(tree)
                    self.whole = re.compile(source, re.DOTALL)
                    self.exact = not newline
                except (re.error, OverflowError, RecursionError):
                    self.whole = None

        self.re2 = _re2_compile(tree, ic) if self.whole is not None else None

    def may_match(self, data: bytes) -> bool:
        """False when the file's bytes hold none of the required literals: no line can match."""
        if self.literals is None:
            return True
        haystack = data.lower() if self.rx.ignore_case else data
        return any(lit in haystack for lit in self.literals)

    def matches(self, text: str):
        """(line index, UTF-16 column) of the first match of each line of text.split("\\n") that has
        one, in order: what testing every line (as UTF-16 units) gives. A generator, so a caller
        that stops early (maxCount, the global cap) does no more work."""
        if self.whole is None:
            yield from self._each_line(to_units(text))
            return
        subject = to_units(text) if self.units_only else text
        if self.re2 is not None and subject is text and self.re2.search(text) is None:
            return  # (subject is text: no astral character, or the pattern cannot tell)
        search = self.whole.search
        line_re = self.rx._re
        pos = line = counted = 0
        end = len(subject)
        while True:
            m = search(subject, pos)
            if m is None:
                return
            start = m.start()
            line_start = subject.rfind("\n", 0, start) + 1
            line += subject.count("\n", counted, line_start)
            counted = line_start
            line_end = subject.find("\n", start)
            if line_end < 0:
                line_end = end
            if self.exact:
                yield line, _units(subject[line_start:start])
            else:
                found = line_re.search(subject[line_start:line_end])
                if found is not None:
                    yield line, _units(subject[line_start:line_start + found.start()])
            if line_end >= end:
                return
            pos = line_end + 1

    def _each_line(self, units: str):
        literals = None if self.literals is None else [lit.decode() for lit in self.literals]
        fold = self.rx.ignore_case
        search = self.rx.search
        for i, line in enumerate(units.split("\n")):
            if literals is not None:
                hay = line.lower() if fold else line
                if not any(lit in hay for lit in literals):
                    continue
            column = search(line)
            if column is not None:
                yield i, column


def _units(segment: str) -> int:
    """Length in UTF-16 code units."""
    if segment.isascii():
        return len(segment)
    return len(segment.encode("utf-16-le", "surrogatepass")) // 2


# ---------------------------------------------------------------------------------------------
# What a pattern can match
# ---------------------------------------------------------------------------------------------

def _atom_ranges(node, ic: bool):
    if node[0] == "char":
        group = _fold_tables()[1].get(node[1]) if ic else None
        return [(m, m) for m in group] if group else [(node[1], node[1])]
    ranges = _case_close(node[1]) if ic else _normalize(node[1])
    return _complement(ranges) if node[2] else ranges


def _can_match(tree, ic: bool, test) -> bool:
    """Whether some character test anywhere in the pattern accepts a unit in a range test(lo, hi)
    is true for (back references match only what such tests matched)."""
    found = []

    def visit(node, context):
        if node[0] in ("char", "set") and any(test(lo, hi) for lo, hi in _atom_ranges(node, ic)):
            found.append(node)
    _walk(tree, visit)
    return bool(found)


def _negative_look_can_match_newline(tree, ic: bool) -> bool:
    found = []

    def visit(node, context):
        if node[0] == "look" and node[2] and _can_match(node[3], ic, lambda lo, hi: lo <= 0x0A <= hi):
            found.append(node)
    _walk(tree, visit)
    return bool(found)


# ---------------------------------------------------------------------------------------------
# The pattern for RE2: the same code points, multiline ^/$, ASCII \b (RE2's own)
# ---------------------------------------------------------------------------------------------

class _NotForRE2(Exception):
    pass


def _re2_compile(tree, ic: bool):
    if re2 is None:
        return None
    try:
        options = re2.Options()
        options.log_errors = False
        options.never_capture = True
        return re2.compile(_re2_source(tree, ic), options)
    except (_NotForRE2, re2.error):
        return None


def _re2_class(ranges) -> str:
    parts = []
    for lo, hi in ranges:
        # A valid text holds no surrogate code point, and the ones it holds as units (astral
        # characters) are never searched by RE2 for a pattern that can match them (see matches).
        for a, b in ((lo, min(hi, 0xD7FF)), (max(lo, 0xE000), hi)):
            if a <= b:
                parts.append(f"\\x{{{a:X}}}" if a == b else f"\\x{{{a:X}}}-\\x{{{b:X}}}")
    if not parts:
        raise _NotForRE2("an empty class")
    return "[" + "".join(parts) + "]"


def _re2_source(node, ic: bool) -> str:
    kind = node[0]
    if kind in ("char", "set"):
        return _re2_class(_atom_ranges(node, ic))
    if kind == "empty":
        return "(?:)"
    if kind == "seq":
        return "".join(_re2_source(c, ic) for c in node[1])
    if kind == "alt":
        return "(?:" + "|".join(_re2_source(c, ic) for c in node[1]) + ")"
    if kind == "group":
        return "(?:" + _re2_source(node[1], ic) + ")"
    if kind == "capture":
        return "(?:" + _re2_source(node[2], ic) + ")"
    if kind == "assert":
        return {"^": "(?m:^)", "$": "(?m:$)", "b": "\\b", "B": "\\B"}[node[1]]
    if kind == "quant":
        _, atom, mn, mx, greedy = node
        if mn > 1000 or (mx != INF and mx > 1000):
            raise _NotForRE2("a repetition RE2 does not take")
        inner = "(?:" + _re2_source(atom, ic) + ")"
        return inner + (f"{{{mn},}}" if mx == INF else f"{{{mn},{mx}}}") + ("" if greedy else "?")
    raise _NotForRE2(kind)  # lookarounds and back references


# ---------------------------------------------------------------------------------------------
# Required literals
# ---------------------------------------------------------------------------------------------

def _literal_char(unit: int, ic: bool) -> str | None:
    if unit >= 0x80:
        return None
    return chr(unit).lower() if ic else chr(unit)


def _literals(node, ic: bool):
    """(exact, required) for a node: exact is the set of every string it can match (small, finite,
    ASCII) or None; required is a set of non-empty strings one of which each match contains, or
    None. Zero-width nodes match exactly the empty string."""
    kind = node[0]
    if kind == "char":
        c = _literal_char(node[1], ic)
        return ({c}, {c}) if c is not None else (None, None)
    if kind == "set":
        ranges = _atom_ranges(node, ic)
        units = {u for lo, hi in ranges for u in range(lo, hi + 1)} if sum(hi - lo + 1 for lo, hi in ranges) <= 2 else set()
        chars = {_literal_char(u, ic) for u in units}
        if len(chars) == 1 and None not in chars:  # [a], or [Aa] under /i
            return chars, chars
        return None, None
    if kind in ("empty", "assert", "look"):
        return {""}, None
    if kind == "group":
        return _literals(node[1], ic)
    if kind == "capture":
        return _literals(node[2], ic)
    if kind == "backref":
        return None, None
    if kind == "alt":
        parts = [_literals(c, ic) for c in node[1]]
        exact = None
        if all(p[0] is not None for p in parts):
            exact = set().union(*(p[0] for p in parts))
            if len(exact) > _MAX_EXACT:
                exact = None
        required = None
        if exact is not None and "" not in exact:
            required = exact
        elif all(p[1] is not None for p in parts):
            required = set().union(*(p[1] for p in parts))
        return exact, required
    if kind == "quant":
        _, atom, mn, mx, _greedy = node
        exact, required = _literals(atom, ic)
        if mn == 0:
            return None, None
        if mn == mx and exact is not None:
            repeated = {""}
            for _ in range(mn):
                repeated = {a + b for a in repeated for b in exact}
                if len(repeated) > _MAX_EXACT or max(map(len, repeated)) > _MAX_LITERAL:
                    repeated = None
                    break
            if repeated is not None:
                return repeated, (repeated if "" not in repeated else required)
        if required is None and exact is not None and "" not in exact:
            required = exact
        return None, required
    if kind == "seq":
        candidates = []
        run = {""}
        whole_exact = True
        for child in node[1]:
            exact, required = _literals(child, ic)
            if exact is not None:
                joined = {a + b for a in run for b in exact}
                if len(joined) <= _MAX_EXACT and max(map(len, joined)) <= _MAX_LITERAL:
                    run = joined
                    continue
            whole_exact = False
            candidates.append(run)
            candidates.append(required)
            run = exact if exact is not None else {""}
        candidates.append(run)
        best = _best([c for c in candidates if c])
        return (run if whole_exact else None), best
    raise AssertionError(node)


def _best(sets):
    usable = [s for s in sets if s and "" not in s and not any("\n" in x for x in s)]
    if not usable:
        return None
    return max(usable, key=lambda s: (min(map(len, s)), -len(s)))


__all__ = ["LineSearch", "INF"]
