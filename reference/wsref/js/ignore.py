"""The `ignore` npm package (7.0.x), ported: the matcher behind gitignore.py's loadGitignore.

Checked against the package itself on generated patterns and paths. The upstream reads
`.gitignore` from the workspace root only (`loadGitignore`), builds `ignore().add(content)` and
asks `ig.ignores(path)` with a path relative to the workspace root, a directory marked by a
trailing slash. This module is a port of that package's matcher, not a
gitignore engine of its own: pathspec follows git, and `ignore` differs from git in ways the
listing shows, so its rules are reproduced here one for one:

- matching is case-insensitive (the package's default `ignorecase: true`), whatever the platform;
- each pattern becomes a JavaScript regular expression through the package's replacer chain
  (bracket expressions scanned out first, POSIX classes, `**` runs, trailing `*` and `/**`);
- a path whose parent directory is ignored is ignored, and a negation cannot re-include it;
- a path that is not a `path.relative()`d string (`../x`, `/x`, `.`) throws a RangeError with
  the package's message.

The package's checkIgnore/testLiteral mode and its wildcard pinning (a speed-up that, as its
source says, never changes which paths match) are left out: the tools never use the first and
the second has no effect on results.
"""
from __future__ import annotations

import re
import warnings

# -------------------------------------------------------------------------------------------
# Pattern -> regular expression (the package's makeRegexPrefix and _make)
# -------------------------------------------------------------------------------------------

_ESCAPE = "\\"
_SPACE = " "
_SLASH = "/"
_REGEX_LITERAL_SPECIAL = re.compile(r"[.*+?()\[\]{}^$|\\/]")
_BOM = "\ufeff"
_REGEX_ANCHORED_GLOBSTAR = re.compile(r"^/\*{2,}$")

_POSIX_CLASSES = {
    "alnum": "0-9A-Za-z",
    "alpha": "A-Za-z",
    "blank": " \\t",
    "cntrl": "\\x00-\\x1f\\x7f",
    "digit": "0-9",
    "graph": "!-.0-~",
    "lower": "a-z",
    "print": " -.0-~",
    "punct": "!-.:-@\\[-`{-~",
    "space": " \\t\\n\\r",
    "upper": "A-Z",
    "xdigit": "0-9A-Fa-f",
}
_CLASS_MEMBERS_TO_ESCAPE = "\\]^-["
_NON_SLASH = "(?!\\/)"
_NEVER_MATCH = "[]"
_PLACEHOLDER = "\u0000"
_REGEX_RESTORE_PLACEHOLDER = re.compile(f"{_PLACEHOLDER}(\\d+){_PLACEHOLDER}")
_TRAILING_WILDCARD = "\ue000"
_TRAILING_DOUBLESTAR = "\ue001"
_WILDCARD = "[^\\/]*"


def _escape_member(char: str) -> str:
    return _ESCAPE + char if char in _CLASS_MEMBERS_TO_ESCAPE else char


def _class_source(negated: str, body: str) -> str:
    if negated:
        return f"[^\\/{body}]"
    source = f"[{body}]"
    return _NON_SLASH + source if _compile_js(source).search("/") else source


def _scan_bracket(pattern: str, start: int):
    length = len(pattern)
    index = start + 1
    negated = ""
    lead = pattern[index] if index < length else None
    if lead in ("!", "^"):
        negated = "^"
        index += 1
    body = ""
    prev = ""
    while True:
        char = pattern[index] if index < length else None
        if char is None:
            return None
        if char == _ESCAPE:
            index += 1
            escaped = pattern[index]
            body += _escape_member(escaped)
            prev = escaped
        elif char == "-" and prev and index + 1 < length and pattern[index + 1] != "]":
            index += 1
            to = pattern[index]
            if to == _ESCAPE:
                index += 1
                to = pattern[index] if index < length else None
            # JS compares UTF-16 strings; a single unit each here except for astral characters
            if to is not None and _js_le(prev, to):
                body += f"-{_escape_member(to)}"
            elif to is None and _js_le(prev, "undefined"):
                body += "-undefined"
            prev = ""
        elif char == "[" and index + 1 < length and pattern[index + 1] == ":":
            name_start = index + 2
            end = name_start
            while end < length and pattern[end] != "]":
                end += 1
            if end == length:
                return None
            if end > name_start and pattern[end - 1] == ":":
                name = pattern[name_start:end - 1]
                if name not in _POSIX_CLASSES:
                    return None
                body += _POSIX_CLASSES[name]
                prev = ""
                index = end
            else:
                body += _escape_member("[")
                prev = "["
                index = name_start - 2
        else:
            body += _escape_member(char)
            prev = char
        index += 1
        if index < length and pattern[index] == "]":
            return {"end": index, "source": _class_source(negated, body)}


def _js_le(a: str, b: str) -> bool:
    return a.encode("utf-16-be", "surrogatepass") <= b.encode("utf-16-be", "surrogatepass")


def _is_reserved(char: str) -> bool:
    return char in (_PLACEHOLDER, _TRAILING_WILDCARD, _TRAILING_DOUBLESTAR)


def _extract_brackets(pattern: str):
    sources: list[str] = []

    def hold(source: str) -> str:
        sources.append(source)
        return f"{_PLACEHOLDER}{len(sources) - 1}{_PLACEHOLDER}"

    length = len(pattern)
    out = ""
    index = 0
    while index < length:
        char = pattern[index]
        if char == _ESCAPE:
            escaped = pattern[index + 1] if index + 1 < length else None
            if escaped == _SLASH and index + 2 == length:
                out += hold(_NEVER_MATCH)
            elif escaped in ("*", "[", _SPACE):
                out += pattern[index:index + 2]
            else:
                # a lone trailing backslash cannot reach here: createRule drops such a pattern
                if _REGEX_LITERAL_SPECIAL.match(escaped):
                    out += hold(_ESCAPE + escaped)
                elif _is_reserved(escaped):
                    out += hold(f"[{escaped}]")
                else:
                    out += hold(escaped)
            index += 2
        elif _is_reserved(char):
            out += hold(f"[{char}]")
            index += 1
        elif char == "[":
            scanned = _scan_bracket(pattern, index)
            if scanned is None:
                out += hold(_NEVER_MATCH)
                index = length
            else:
                out += hold(scanned["source"])
                index = scanned["end"] + 1
        else:
            out += char
            index += 1
    return out, sources


_REGEX_INNER_SLASH = re.compile(r"/(?!$)")


def _r_space(source: str, pattern: str) -> str:
    if _ESCAPE + _SPACE not in source:
        return source

    def rep(m):
        run, space = m.group(1), m.group(2)
        return run[: len(run) - len(run) % 2] + _SPACE if space else run
    return re.sub(r"(\\+)( ?)", rep, source)


def _r_star_runs(source: str, pattern: str) -> str:
    if "*" not in source:
        return source
    return re.sub(r"(^|/)\*{3,}(?=/|$)", lambda m: f"{m.group(1)}**", source)


def _r_escape_meta(source: str, pattern: str) -> str:
    return re.sub(r"[\\$.|*+(){^]", lambda m: "\\" + m.group(0), source)


def _r_question(source: str, pattern: str) -> str:
    if "?" not in source:
        return source
    # JS: /(?!\\)\?/g -- the lookahead never blocks a `?`, so every `?` goes
    return source.replace("?", "[^/]")


def _r_leading_slash(source: str, pattern: str) -> str:
    if not source.startswith("/"):
        return source
    return "^" + source[1:]


def _r_slashes(source: str, pattern: str) -> str:
    return source.replace("/", "\\/")


def _r_leading_globstar(source: str, pattern: str) -> str:
    if "*" not in source:
        return source
    return re.sub(r"^\^*(?:\\\*\\\*\\/)+", lambda m: "(?:^|\\/)", source, count=1)


def _r_anchor(source: str, pattern: str) -> str:
    if not source or source[0] in ("^", "("):
        return source
    anchor = "(?:^|\\/)" if not _REGEX_INNER_SLASH.search(pattern) else "^"
    return anchor + source


def _r_two_globstars(source: str, pattern: str) -> str:
    if "*" not in source:
        return source
    rx = re.compile(r"\\/\\\*\\\*(?=\\/|$)")
    out = []
    pos = 0
    for m in rx.finditer(source):
        index = m.start()
        if index + 6 < len(source):
            rep = "(?:\\/[^\\/]+)+" if source[index + 6:] == "\\/" else "(?:\\/[^\\/]+)*"
        else:
            rep = f"\\/{_TRAILING_DOUBLESTAR}"
        out.append(source[pos:index])
        out.append(rep)
        pos = m.end()
    out.append(source[pos:])
    return "".join(out)


def _r_intermediate_wildcards(source: str, pattern: str) -> str:
    if "*" not in source:
        return source
    return re.sub(r"(^|[^\\])(?:\\\*)+(?!$)", lambda m: m.group(1) + _WILDCARD, source)


def _r_trailing_wildcard(source: str, pattern: str) -> str:
    if "*" not in source:
        return source

    def rep(m):
        p1, p2 = m.group(1), m.group(2)
        return p1 + _TRAILING_WILDCARD if p2 == "" else m.group(0)
    return re.sub(r"(^|[^\\])((?:\\\\)*)\\\*$", rep, source, count=1)


def _r_unescape1(source: str, pattern: str) -> str:
    if "\\\\" not in source:
        return source
    return re.sub(r"\\\\\\(?=[$.|*+(){^])", lambda m: _ESCAPE, source)


def _r_unescape2(source: str, pattern: str) -> str:
    if "\\\\" not in source:
        return source
    return source.replace("\\\\", "\\")


def _r_literal_bracket(source: str, pattern: str) -> str:
    if "[" not in source:
        return source
    return re.sub(r"\\\[([^\]/]*?)($|\])", lambda m: f"\\[{m.group(1)}{m.group(2)}", source)


def _r_ending(source: str, pattern: str) -> str:
    last = source[-1] if source else ""
    if not last or last in (_TRAILING_WILDCARD, _TRAILING_DOUBLESTAR):
        return source
    return f"{source}$" if last == _SLASH else f"{source}(?=$|\\/$)"


_REPLACERS = [
    _r_space, _r_star_runs, _r_escape_meta, _r_question, _r_leading_slash, _r_slashes,
    _r_leading_globstar, _r_anchor, _r_two_globstars, _r_intermediate_wildcards,
    _r_trailing_wildcard, _r_unescape1, _r_unescape2, _r_literal_bracket, _r_ending,
]


def make_regex_prefix(pattern: str) -> str:
    if _REGEX_ANCHORED_GLOBSTAR.match(pattern):
        pattern = "**"
    source, sources = _extract_brackets(pattern)
    for step in _REPLACERS:
        source = step(source, pattern)
    if sources:
        source = _REGEX_RESTORE_PLACEHOLDER.sub(lambda m: sources[int(m.group(1))], source)
    return source


_REGEX_REPLACE_TRAILING_WILDCARD = re.compile("(^|\\\\/)?\ue000$")
_REGEX_REPLACE_TRAILING_DOUBLESTAR = re.compile("\ue001$")


def _replace_trailing_wildcard(m) -> str:
    p1 = m.group(1)
    prefix = f"{p1}[^/]+" if p1 else "[^/]*"
    return f"{prefix}(?=$|\\/$)"


def _make_source(prefix: str) -> str:
    s = _REGEX_REPLACE_TRAILING_WILDCARD.sub(_replace_trailing_wildcard, prefix, count=1)
    return _REGEX_REPLACE_TRAILING_DOUBLESTAR.sub(lambda m: "[\\s\\S]", s, count=1)


# -------------------------------------------------------------------------------------------
# JavaScript regular-expression source -> Python
# -------------------------------------------------------------------------------------------

def _js_to_python(source: str) -> str:
    """Rewrite the few constructs whose meaning differs: `$` (end of input in JS, where Python's
    also matches before a final newline) and the empty class `[]` (never matches in JS, a syntax
    error in Python)."""
    out = []
    i = 0
    n = len(source)
    while i < n:
        c = source[i]
        if c == "\\" and i + 1 < n:
            out.append(source[i:i + 2])
            i += 2
        elif c == "[":
            if source.startswith("[]", i):
                out.append("(?!)")
                i += 2
                continue
            if source.startswith("[^]", i):
                out.append("[\\s\\S]")
                i += 3
                continue
            j = i + 1
            if j < n and source[j] == "^":
                j += 1
            body_start = j
            while j < n and source[j] != "]":
                j += 2 if source[j] == "\\" else 1
            body = source[body_start:j]
            # a `[` inside a JS class is a plain member; Python would warn about nested sets
            body = re.sub(r"(?<!\\)\[", r"\\[", body)
            out.append(source[i:body_start] + body + "]")
            i = j + 1
        elif c == "$":
            out.append(r"\Z")
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _compile_js(source: str, ignore_case: bool = False) -> re.Pattern:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return re.compile(_js_to_python(source), re.IGNORECASE if ignore_case else 0)


# -------------------------------------------------------------------------------------------
# Rules and the matcher
# -------------------------------------------------------------------------------------------

def _has_trailing_backslash(s: str) -> bool:
    count = 0
    while count < len(s) and s[len(s) - count - 1] == _ESCAPE:
        count += 1
    return count % 2 == 1


def _trim_end(body: str) -> str:
    """The package's trimEnd for a line of a split string (no line ends left to strip)."""
    end = len(body)
    while end > 0 and body[end - 1] == _SPACE:
        end -= 1
    if end == len(body):
        return body
    backslashes = 0
    while end - backslashes - 1 >= 0 and body[end - backslashes - 1] == _ESCAPE:
        backslashes += 1
    return body[:end - 1] + _SPACE if backslashes % 2 else body[:end]


class _Rule:
    __slots__ = ("pattern", "negative", "body", "regex")

    def __init__(self, pattern: str, negative: bool, body: str, regex: re.Pattern):
        self.pattern = pattern
        self.negative = negative
        self.body = body
        self.regex = regex


def _create_rule(pattern: str, ignore_case: bool, strip_bom: bool):
    body = pattern[1:] if strip_bom and pattern[:1] == _BOM else pattern
    if body[:1] == "#":
        return None
    negative = False
    if body[:1] == "!":
        negative = True
        body = body[1:]
    if body[-1:] == _SPACE:
        body = _trim_end(body)
    if not body or _has_trailing_backslash(body):
        return None
    if body.startswith("\\!"):
        body = "!" + body[2:]
    if body.startswith("\\#"):
        body = "#" + body[2:]
    prefix = make_regex_prefix(body)
    return _Rule(pattern, negative, body, _compile_js(_make_source(prefix), ignore_case))


def _parent_of(path: str) -> str:
    if path.startswith("/") or "//" in path:
        slices = [s for s in path.split("/") if s]
        if slices:
            slices.pop()
        return "/".join(slices) + "/" if slices else ""
    end = len(path) - 1
    start = end - 1 if path.endswith("/") else end
    cut = path.rfind("/", 0, start + 1) if start >= 0 else -1
    return "" if cut < 0 else path[:cut + 1]


def _is_not_relative(path: str) -> bool:
    if path.startswith("/"):
        return True
    if not path.startswith("."):
        return False
    if len(path) == 1:
        return True
    if path[1] == "/":
        return True
    if path[1] != ".":
        return False
    return len(path) == 2 or path[2] == "/"


class JsRangeError(Exception):
    js_name = "RangeError"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class JsTypeError(Exception):
    js_name = "TypeError"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Ignore:
    """`ignore()` with its defaults (ignorecase, strict path check)."""

    def __init__(self, ignore_case: bool = True):
        self.ignore_case = ignore_case
        self.rules: list[_Rule] = []
        self._cache: dict[str, tuple[bool, bool]] = {}

    def add(self, content: str) -> "Ignore":
        strip_bom = content[:1] == _BOM
        text = content[:-1] if content.endswith("\r") else content
        lines = [line for line in re.split(r"\r?\n", text) if line]
        added = False
        for index, line in enumerate(lines):
            rule = _create_rule(line, self.ignore_case, strip_bom and index == 0)
            if rule:
                self.rules.append(rule)
                added = True
        if added:
            self._cache = {}
        return self

    def _test_one(self, path: str) -> tuple[bool, bool]:
        for rule in reversed(self.rules):
            if rule.regex.search(path):
                return (not rule.negative, rule.negative)
        return (False, False)

    def _t(self, path: str) -> tuple[bool, bool]:
        cached = self._cache.get(path)
        if cached:
            return cached
        parent_path = _parent_of(path)
        parent = self._t(parent_path) if parent_path else None
        result = parent if parent and parent[0] else self._test_one(path)
        self._cache[path] = result
        return result

    def ignores(self, path: str) -> bool:
        if not path:
            raise JsTypeError("path must not be empty")
        if _is_not_relative(path):
            raise JsRangeError(f'path should be a `path.relative()`d string, but got "{path}"')
        return self._t(path)[0]


