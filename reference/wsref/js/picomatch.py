"""picomatch 4.0.x, ported: the matcher behind glob.py's createGlobMatcher.

Checked against picomatch itself on generated patterns and paths. createGlobMatcher strips one
leading `./` or `/` from each pattern and from each tested path, then calls `picomatch(patterns, {posix: true, dot})`: a path matches when any pattern matches.
picomatch is not a shell glob engine with a regex backend one could swap for another (wcmatch
differs from it on `**.ts`, `a/**` matching `a`, `(a).txt`, `src//*.ts` and more), so this module
ports its parser (`lib/parse.js`, `lib/picomatch.js`, picomatch 4.0.x) step for step: it builds
the same JavaScript regular-expression source, then compiles that source for Python with the
few rewrites the two dialects need (`$`, `.`, `[]`, identity escapes).

Every quirk of the original comes along on purpose, since the listing shows it: a pattern that
equals the path matches before any regex runs; unbalanced `[`, `(` and `{` are taken literally;
`(`...`)` is a regex group; `{1..3}` becomes a character class; an invalid regex never matches.
"""
from __future__ import annotations

import re
import warnings

from .strings import js_trim

MAX_LENGTH = 1024 * 64

# -- constants (lib/constants.js, POSIX flavour) --------------------------------------------
DOT_LITERAL = "\\."
PLUS_LITERAL = "\\+"
SLASH_LITERAL = "\\/"
ONE_CHAR = "(?=.)"
QMARK = "[^/]"
END_ANCHOR = f"(?:{SLASH_LITERAL}|$)"
START_ANCHOR = f"(?:^|{SLASH_LITERAL})"
DOTS_SLASH = f"{DOT_LITERAL}{{1,2}}{END_ANCHOR}"
NO_DOT = f"(?!{DOT_LITERAL})"
NO_DOTS = f"(?!{START_ANCHOR}{DOTS_SLASH})"
NO_DOT_SLASH = f"(?!{DOT_LITERAL}{{0,1}}{END_ANCHOR})"
NO_DOTS_SLASH = f"(?!{DOTS_SLASH})"
QMARK_NO_DOT = f"[^.{SLASH_LITERAL}]"
STAR = f"{QMARK}*?"

POSIX_REGEX_SOURCE = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "ascii": "\\x00-\\x7F",
    "blank": " \\t",
    "cntrl": "\\x00-\\x1F\\x7F",
    "digit": "0-9",
    "graph": "\\x21-\\x7E",
    "lower": "a-z",
    "print": "\\x20-\\x7E ",
    "punct": "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
    "space": " \\t\\r\\n\\v\\f",
    "upper": "A-Z",
    "word": "A-Za-z0-9_",
    "xdigit": "A-Fa-f0-9",
}

REGEX_NON_SPECIAL_CHARS = re.compile(r"^[^@!\[\].,$*+?^{}()|\\/]+")
REGEX_SPECIAL_CHARS = re.compile(r"[-*+?.^${}(|)\[\]]")
REGEX_SPECIAL_CHARS_BACKREF = re.compile(r"(\\?)((\W)(\3*))", re.ASCII)
REGEX_SPECIAL_CHARS_GLOBAL = re.compile(r"([-*+?.^${}(|)\[\]])")
REPLACEMENTS = {"***": "*", "**/**": "**", "**/**/**": "**"}

EXTGLOB_CHARS = {
    "!": {"type": "negate", "open": "(?:(?!(?:", "close": f")){STAR})"},
    "?": {"type": "qmark", "open": "(?:", "close": ")?"},
    "+": {"type": "plus", "open": "(?:", "close": ")+"},
    "*": {"type": "star", "open": "(?:", "close": ")*"},
    "@": {"type": "at", "open": "(?:", "close": ")"},
}
DEFAULT_MAX_EXTGLOB_RECURSION = 0


class PicomatchTypeError(Exception):
    js_name = "TypeError"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class PicomatchSyntaxError(Exception):
    js_name = "SyntaxError"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _u(x) -> str:
    """A JS value as String() prints it, for the places the original tests `undefined`."""
    return "undefined" if x is None else x


def escape_regex(s: str) -> str:
    return REGEX_SPECIAL_CHARS_GLOBAL.sub(r"\\\1", s)


def has_regex_chars(s: str) -> bool:
    return bool(REGEX_SPECIAL_CHARS.search(s))


def escape_last(inp: str, char: str, last_idx=None) -> str:
    if last_idx is None:
        idx = inp.rfind(char)
    else:
        idx = inp.rfind(char, 0, max(last_idx, 0) + 1)
    if idx == -1:
        return inp
    if idx > 0 and inp[idx - 1] == "\\":
        return escape_last(inp, char, idx - 1)
    return f"{inp[:idx]}\\{inp[idx:]}"


def remove_prefix(inp: str, state: dict) -> str:
    if inp.startswith("./"):
        state["prefix"] = "./"
        return inp[2:]
    return inp


def wrap_output(inp: str, state: dict) -> str:
    output = f"^(?:{inp})$"
    if state.get("negated") is True:
        output = f"(?:^(?!{output}).*$)"
    return output


def _js_sort(values: list[str]) -> list[str]:
    return sorted(values, key=lambda s: s.encode("utf-16-be", "surrogatepass"))


def _expand_range(args: list[str]) -> str:
    args = _js_sort(args)
    value = f"[{'-'.join(args)}]"
    if _compile(value) is None:
        return "..".join(escape_regex(v) for v in args)
    return value


# -- the extglob risk analysis (picomatch 4.0.4+) -------------------------------------------

def _split_top_level(inp: str) -> list[str]:
    parts, bracket, paren, quote, value, escaped = [], 0, 0, 0, "", False
    for ch in inp:
        if escaped:
            value += ch
            escaped = False
            continue
        if ch == "\\":
            value += ch
            escaped = True
            continue
        if ch == '"':
            quote = 0 if quote == 1 else 1
            value += ch
            continue
        if quote == 0:
            if ch == "[":
                bracket += 1
            elif ch == "]" and bracket > 0:
                bracket -= 1
            elif bracket == 0:
                if ch == "(":
                    paren += 1
                elif ch == ")" and paren > 0:
                    paren -= 1
                elif ch == "|" and paren == 0:
                    parts.append(value)
                    value = ""
                    continue
        value += ch
    parts.append(value)
    return parts


def _is_plain_branch(branch: str) -> bool:
    escaped = False
    for ch in branch:
        if escaped:
            escaped = False
            continue
        if ch == "\\":
            escaped = True
            continue
        if ch in "?*+@!()[]{}":
            return False
    return True


def _normalize_simple_branch(branch: str):
    value = js_trim(branch)
    changed = True
    while changed:
        changed = False
        if re.match(r"^@\([^\\()\[\]{}|]+\)$", value) and not value.endswith("\n"):
            value = value[2:-1]
            changed = True
    if not _is_plain_branch(value):
        return None
    return re.sub(r"\\(.)", r"\1", value)


def _has_repeated_char_prefix_overlap(branches: list[str]) -> bool:
    values = [v for v in (_normalize_simple_branch(b) for b in branches) if v]
    for i in range(len(values)):
        for j in range(i + 1, len(values)):
            a, b = values[i], values[j]
            char = a[0] if a else ""
            if not char or a != char * len(a) or b != char * len(b):
                continue
            if a == b or a.startswith(b) or b.startswith(a):
                return True
    return False


def _parse_repeated_extglob(pattern: str, require_end: bool = True):
    if pattern[:1] not in ("+", "*") or pattern[1:2] != "(":
        return None
    bracket = paren = quote = 0
    escaped = False
    for i in range(1, len(pattern)):
        ch = pattern[i]
        if escaped:
            escaped = False
            continue
        if ch == "\\":
            escaped = True
            continue
        if ch == '"':
            quote = 0 if quote == 1 else 1
            continue
        if quote == 1:
            continue
        if ch == "[":
            bracket += 1
            continue
        if ch == "]" and bracket > 0:
            bracket -= 1
            continue
        if bracket > 0:
            continue
        if ch == "(":
            paren += 1
            continue
        if ch == ")":
            paren -= 1
            if paren == 0:
                if require_end and i != len(pattern) - 1:
                    return None
                return {"type": pattern[0], "body": pattern[2:i], "end": i}
    return None


def _build_char_class_star(chars: list[str]) -> str:
    source = escape_regex(chars[0]) if len(chars) == 1 else "[" + "".join(escape_regex(c) for c in chars) + "]"
    return f"{source}*"


def _get_star_extglob_sequence_chars(pattern: str):
    index = 0
    chars = []
    while index < len(pattern):
        match = _parse_repeated_extglob(pattern[index:], False)
        if not match or match["type"] != "*":
            return None
        branches = [js_trim(b) for b in _split_top_level(match["body"])]
        if len(branches) != 1:
            return None
        branch = _normalize_simple_branch(branches[0])
        if not branch or len(branch) != 1:
            return None
        chars.append(branch)
        index += match["end"] + 1
    if len(chars) < 1:
        return None
    return chars


def _repeated_extglob_recursion(pattern: str) -> int:
    depth = 0
    value = js_trim(pattern)
    match = _parse_repeated_extglob(value)
    while match:
        depth += 1
        value = js_trim(match["body"])
        match = _parse_repeated_extglob(value)
    return depth


def _analyze_repeated_extglob(body: str) -> dict:
    max_rec = DEFAULT_MAX_EXTGLOB_RECURSION
    branches = [js_trim(b) for b in _split_top_level(body)]
    if len(branches) > 1:
        if (any(b == "" for b in branches) or any(re.fullmatch(r"[*?]+", b) for b in branches)
                or _has_repeated_char_prefix_overlap(branches)):
            return {"risky": True}
    safe_chars: list[str] = []
    saw_star_sequence = False
    combinable = True
    for branch in branches:
        chars = _get_star_extglob_sequence_chars(branch)
        if chars:
            saw_star_sequence = True
            safe_chars.extend(chars)
            continue
        literal = _normalize_simple_branch(branch)
        if literal and len(literal) == 1:
            safe_chars.append(literal)
            continue
        combinable = False
        if _repeated_extglob_recursion(branch) > max_rec:
            return {"risky": True}
    if saw_star_sequence:
        if combinable:
            return {"risky": True, "safeOutput": _build_char_class_star(list(dict.fromkeys(safe_chars)))}
        return {"risky": True}
    return {"risky": False}


# -- parse (lib/parse.js) ---------------------------------------------------------------------

def _cat(a, b: str) -> str:
    return _u(a) + b


def parse(inp: str, options: dict) -> dict:
    inp = REPLACEMENTS.get(inp, inp)
    opts = dict(options)
    if len(inp) > MAX_LENGTH:
        raise PicomatchSyntaxError(f"Input length: {len(inp)}, exceeds maximum allowed length: {MAX_LENGTH}")
    bos = {"type": "bos", "value": "", "output": ""}
    tokens: list[dict] = [bos]
    capture = "?:"
    dot = opts.get("dot") is True

    def globstar() -> str:
        return f"({capture}(?:(?!{START_ANCHOR}{DOTS_SLASH if dot else DOT_LITERAL}).)*?)"

    nodot = "" if dot else NO_DOT
    qmark_no_dot = QMARK if dot else QMARK_NO_DOT
    star = STAR

    state = {
        "input": inp, "index": -1, "start": 0, "dot": dot, "output": "", "prefix": "",
        "backtrack": False, "negated": False, "brackets": 0, "braces": 0, "parens": 0, "quotes": 0,
        "globstar": False, "tokens": tokens,
    }
    inp = remove_prefix(inp, state)
    n = len(inp)
    extglobs: list[dict] = []
    braces: list[dict] = []
    stack: list[str] = []
    cur = {"prev": bos, "value": None}

    def eos() -> bool:
        return state["index"] == n - 1

    def peek(k: int = 1):
        i = state["index"] + k
        return inp[i] if 0 <= i < n else None

    def advance() -> str:
        state["index"] += 1
        i = state["index"]
        return inp[i] if 0 <= i < n else ""

    def remaining() -> str:
        return inp[state["index"] + 1:]

    def consume(value: str = "", num: int = 0) -> None:
        state["index"] += num

    def append(token: dict) -> None:
        out = token.get("output")
        state["output"] += out if out is not None else token["value"]
        consume(token["value"])

    def negate() -> bool:
        count = 1
        while peek() == "!" and (peek(2) != "(" or peek(3) == "?"):
            advance()
            state["start"] += 1
            count += 1
        if count % 2 == 0:
            return False
        state["negated"] = True
        state["start"] += 1
        return True

    def increment(kind: str) -> None:
        state[kind] += 1
        stack.append(kind)

    def decrement(kind: str) -> None:
        state[kind] -= 1
        if stack:
            stack.pop()

    def push(tok: dict) -> None:
        prev = cur["prev"]
        if prev["type"] == "globstar":
            is_brace = state["braces"] > 0 and tok["type"] in ("comma", "brace")
            is_extglob = tok.get("extglob") is True or (bool(extglobs) and tok["type"] in ("pipe", "paren"))
            if tok["type"] != "slash" and tok["type"] != "paren" and not is_brace and not is_extglob:
                plen = len(prev["output"])
                state["output"] = state["output"][:-plen] if plen else ""
                prev["type"] = "star"
                prev["value"] = "*"
                prev["output"] = star
                state["output"] += prev["output"]
        if extglobs and tok["type"] != "paren":
            extglobs[-1]["inner"] += tok["value"]
        if tok.get("value") or tok.get("output"):
            append(tok)
        if prev and prev["type"] == "text" and tok["type"] == "text":
            prev["output"] = (prev.get("output") or prev["value"]) + tok["value"]
            prev["value"] += tok["value"]
            return
        tok["prev"] = prev
        tokens.append(tok)
        cur["prev"] = tok

    def extglob_open(kind: str, value: str) -> None:
        token = {**EXTGLOB_CHARS[value], "conditions": 1, "inner": ""}
        token["prev"] = cur["prev"]
        token["parens"] = state["parens"]
        token["output"] = state["output"]
        token["startIndex"] = state["index"]
        token["tokensIndex"] = len(tokens)
        output = token["open"]
        increment("parens")
        push({"type": kind, "value": value, "output": "" if state["output"] else ONE_CHAR})
        push({"type": "paren", "extglob": True, "value": advance(), "output": output})
        extglobs.append(token)

    def extglob_close(token: dict) -> None:
        value = cur["value"]
        literal = inp[token["startIndex"]: state["index"] + 1]
        body = inp[token["startIndex"] + 2: state["index"]]
        analysis = _analyze_repeated_extglob(body)
        if token["type"] in ("plus", "star") and analysis["risky"]:
            safe_output = None
            if analysis.get("safeOutput"):
                safe_output = ("" if token["output"] else ONE_CHAR) + analysis["safeOutput"]
            opened = tokens[token["tokensIndex"]]
            opened["type"] = "text"
            opened["value"] = literal
            opened["output"] = safe_output or escape_regex(literal)
            for i in range(token["tokensIndex"] + 1, len(tokens)):
                tokens[i]["value"] = ""
                tokens[i]["output"] = ""
                tokens[i].pop("suffix", None)
            state["output"] = token["output"] + opened["output"]
            state["backtrack"] = True
            push({"type": "paren", "extglob": True, "value": value, "output": ""})
            decrement("parens")
            return
        output = token["close"]
        if token["type"] == "negate":
            extglob_star = star
            if token["inner"] and len(token["inner"]) > 1 and "/" in token["inner"]:
                extglob_star = globstar()
            if extglob_star != star or eos() or re.fullmatch(r"\)+", remaining()):
                output = token["close"] = f")$)){extglob_star}"
            rest = remaining()
            if "*" in token["inner"] and rest and re.fullmatch(r"\.[^\\/.]+", rest):
                expression = parse(rest, {**options, "fastpaths": False})["output"]
                output = token["close"] = f"){expression}){extglob_star})"
            if token["prev"]["type"] == "bos":
                state["negatedExtglob"] = True
        push({"type": "paren", "extglob": True, "value": value, "output": output})
        decrement("parens")

    # -- fast paths ----------------------------------------------------------------------
    if opts.get("fastpaths") is not False and not re.search(r"(^[*!]|[/()\[\]{}\"])", inp):
        backslashes = [False]

        def rep(m):
            esc, chars, first, rest = m.group(1), m.group(2), m.group(3), m.group(4)
            index = m.start()
            if first == "\\":
                backslashes[0] = True
                return m.group(0)
            if first == "?":
                if esc:
                    return esc + first + (QMARK * len(rest) if rest else "")
                if index == 0:
                    return qmark_no_dot + (QMARK * len(rest) if rest else "")
                return QMARK * len(chars)
            if first == ".":
                return DOT_LITERAL * len(chars)
            if first == "*":
                if esc:
                    return esc + first + (star if rest else "")
                return star
            return m.group(0) if esc else f"\\{m.group(0)}"

        output = REGEX_SPECIAL_CHARS_BACKREF.sub(rep, inp)
        if backslashes[0]:
            output = re.sub(r"\\+", lambda m: "\\\\" if len(m.group(0)) % 2 == 0 else "\\", output)
        state["output"] = wrap_output(output, state)
        return state

    # -- tokenize ------------------------------------------------------------------------
    while not eos():
        value = advance()
        cur["value"] = value
        prev = cur["prev"]

        if value == "\u0000":
            continue

        if value == "\\":
            nxt = peek()
            if nxt == "/":
                continue
            if nxt in (".", ";"):
                continue
            if not nxt:
                value += "\\"
                push({"type": "text", "value": value})
                continue
            match = re.match(r"\\+", remaining())
            if match and len(match.group(0)) > 2:
                slashes = len(match.group(0))
                state["index"] += slashes
                if slashes % 2 != 0:
                    value += "\\"
            value += advance()
            cur["value"] = value
            if state["brackets"] == 0:
                push({"type": "text", "value": value})
                continue

        if state["brackets"] > 0 and (value != "]" or prev["value"] == "[" or prev["value"] == "[^"):
            if opts.get("posix") is not False and value == ":":
                inner = prev["value"][1:]
                if "[" in inner:
                    prev["posix"] = True
                    if ":" in inner:
                        idx = prev["value"].rfind("[")
                        pre = prev["value"][:idx]
                        rest = prev["value"][idx + 2:]
                        posix = POSIX_REGEX_SOURCE.get(rest)
                        if posix:
                            prev["value"] = pre + posix
                            state["backtrack"] = True
                            advance()
                            position = next((i for i, t in enumerate(tokens) if t is prev), -1)
                            if not bos["output"] and position == 1:
                                bos["output"] = ONE_CHAR
                            continue
            if (value == "[" and peek() != ":") or (value == "-" and peek() == "]"):
                value = f"\\{value}"
            if value == "]" and (prev["value"] == "[" or prev["value"] == "[^"):
                value = f"\\{value}"
            if opts.get("posix") is True and value == "!" and prev["value"] == "[":
                value = "^"
            prev["value"] += value
            append({"value": value})
            continue

        if state["quotes"] == 1 and value != '"':
            value = escape_regex(value)
            prev["value"] += value
            append({"value": value})
            continue

        if value == '"':
            state["quotes"] = 0 if state["quotes"] == 1 else 1
            continue

        if value == "(":
            increment("parens")
            push({"type": "paren", "value": value})
            continue

        if value == ")":
            extglob = extglobs[-1] if extglobs else None
            if extglob and state["parens"] == extglob["parens"] + 1:
                extglob_close(extglobs.pop())
                continue
            push({"type": "paren", "value": value, "output": ")" if state["parens"] else "\\)"})
            decrement("parens")
            continue

        if value == "[":
            if "]" not in remaining():
                value = f"\\{value}"
            else:
                increment("brackets")
            push({"type": "bracket", "value": value})
            continue

        if value == "]":
            if prev and prev["type"] == "bracket" and len(prev["value"]) == 1:
                push({"type": "text", "value": value, "output": f"\\{value}"})
                continue
            if state["brackets"] == 0:
                push({"type": "text", "value": value, "output": f"\\{value}"})
                continue
            decrement("brackets")
            prev_value = prev["value"][1:]
            if prev.get("posix") is not True and prev_value[:1] == "^" and "/" not in prev_value:
                value = f"/{value}"
            prev["value"] += value
            append({"value": value})
            if has_regex_chars(prev_value):
                continue
            escaped = escape_regex(prev["value"])
            plen = len(prev["value"])
            state["output"] = state["output"][:-plen] if plen else ""
            prev["value"] = f"({capture}{escaped}|{prev['value']})"
            state["output"] += prev["value"]
            continue

        if value == "{":
            increment("braces")
            opened = {"type": "brace", "value": value, "output": "(", "outputIndex": len(state["output"]),
                      "tokensIndex": len(tokens)}
            braces.append(opened)
            push(opened)
            continue

        if value == "}":
            brace = braces[-1] if braces else None
            if not brace:
                push({"type": "text", "value": value, "output": value})
                continue
            output = ")"
            if brace.get("dots") is True:
                arr = tokens[:]
                rng: list[str] = []
                for i in range(len(arr) - 1, -1, -1):
                    tokens.pop()
                    if arr[i]["type"] == "brace":
                        break
                    if arr[i]["type"] != "dots":
                        rng.insert(0, arr[i]["value"])
                output = _expand_range(rng)
                state["backtrack"] = True
            if brace.get("comma") is not True and brace.get("dots") is not True:
                out = state["output"][:brace["outputIndex"]]
                toks = tokens[brace["tokensIndex"]:]
                brace["value"] = brace["output"] = "\\{"
                value = output = "\\}"
                state["output"] = out
                for t in toks:
                    state["output"] += t.get("output") or t["value"]
            push({"type": "brace", "value": value, "output": output})
            decrement("braces")
            braces.pop()
            continue

        if value == "|":
            if extglobs:
                extglobs[-1]["conditions"] += 1
            push({"type": "text", "value": value})
            continue

        if value == ",":
            output = value
            brace = braces[-1] if braces else None
            if brace and stack and stack[-1] == "braces":
                brace["comma"] = True
                output = "|"
            push({"type": "comma", "value": value, "output": output})
            continue

        if value == "/":
            if prev["type"] == "dot" and state["index"] == state["start"] + 1:
                state["start"] = state["index"] + 1
                state["output"] = ""
                tokens.pop()
                cur["prev"] = bos
                continue
            push({"type": "slash", "value": value, "output": SLASH_LITERAL})
            continue

        if value == ".":
            if state["braces"] > 0 and prev["type"] == "dot":
                if prev["value"] == ".":
                    prev["output"] = DOT_LITERAL
                brace = braces[-1]
                prev["type"] = "dots"
                prev["output"] += value
                prev["value"] += value
                brace["dots"] = True
                continue
            if (state["braces"] + state["parens"]) == 0 and prev["type"] != "bos" and prev["type"] != "slash":
                push({"type": "text", "value": value, "output": DOT_LITERAL})
                continue
            push({"type": "dot", "value": value, "output": DOT_LITERAL})
            continue

        if value == "?":
            is_group = prev and prev["value"] == "("
            if not is_group and peek() == "(" and peek(2) != "?":
                extglob_open("qmark", value)
                continue
            if prev and prev["type"] == "paren":
                nxt = peek()
                output = value
                if (prev["value"] == "(" and not re.search(r"[!=<:]", _u(nxt))) or (
                        nxt == "<" and not re.search(r"<([!=]|\w+>)", remaining(), re.ASCII)):
                    output = f"\\{value}"
                push({"type": "text", "value": value, "output": output})
                continue
            if not dot and prev["type"] in ("slash", "bos"):
                push({"type": "qmark", "value": value, "output": QMARK_NO_DOT})
                continue
            push({"type": "qmark", "value": value, "output": QMARK})
            continue

        if value == "!":
            if peek() == "(":
                if peek(2) != "?" or not re.search(r"[!=<:]", _u(peek(3))):
                    extglob_open("negate", value)
                    continue
            if state["index"] == 0:
                negate()
                continue

        if value == "+":
            if peek() == "(" and peek(2) != "?":
                extglob_open("plus", value)
                continue
            if prev and prev["value"] == "(":
                push({"type": "plus", "value": value, "output": PLUS_LITERAL})
                continue
            if (prev and prev["type"] in ("bracket", "paren", "brace")) or state["parens"] > 0:
                push({"type": "plus", "value": value})
                continue
            push({"type": "plus", "value": PLUS_LITERAL})
            continue

        if value == "@":
            if peek() == "(" and peek(2) != "?":
                push({"type": "at", "extglob": True, "value": value, "output": ""})
                continue
            push({"type": "text", "value": value})
            continue

        if value != "*":
            if value in ("$", "^"):
                value = f"\\{value}"
            match = REGEX_NON_SPECIAL_CHARS.match(remaining())
            if match:
                value += match.group(0)
                state["index"] += len(match.group(0))
            push({"type": "text", "value": value})
            continue

        # -- stars --
        if prev and (prev["type"] == "globstar" or prev.get("star") is True):
            prev["type"] = "star"
            prev["star"] = True
            prev["value"] += value
            prev["output"] = star
            state["backtrack"] = True
            state["globstar"] = True
            consume(value)
            continue

        rest = remaining()
        if re.match(r"\([^?]", rest):
            extglob_open("star", value)
            continue

        if prev["type"] == "star":
            prior = prev["prev"]
            before = prior.get("prev")
            is_start = prior["type"] in ("slash", "bos")
            after_star = bool(before) and before["type"] in ("star", "globstar")
            is_brace = state["braces"] > 0 and prior["type"] in ("comma", "brace")
            is_extglob = bool(extglobs) and prior["type"] in ("pipe", "paren")
            if not is_start and prior["type"] != "paren" and not is_brace and not is_extglob:
                push({"type": "star", "value": value, "output": ""})
                continue
            while rest[:3] == "/**":
                i = state["index"] + 4
                after = inp[i] if i < n else None
                if after and after != "/":
                    break
                rest = rest[3:]
                consume("/**", 3)
            is_end = eos() or (state["parens"] > 0 and rest == ")" * state["parens"]
                               and not any(e["type"] == "negate" for e in extglobs))
            if prior["type"] == "bos" and eos():
                prev["type"] = "globstar"
                prev["value"] += value
                prev["output"] = globstar()
                state["output"] = prev["output"]
                state["globstar"] = True
                consume(value)
                continue
            if prior["type"] == "slash" and prior["prev"]["type"] != "bos" and not after_star and is_end:
                cut = len(_u(prior.get("output")) + _u(prev.get("output")))
                state["output"] = state["output"][:-cut] if cut else ""
                prior["output"] = f"(?:{_u(prior.get('output'))}"
                prev["type"] = "globstar"
                prev["output"] = globstar() + "|$)"
                prev["value"] += value
                state["globstar"] = True
                state["output"] += prior["output"] + prev["output"]
                consume(value)
                continue
            if prior["type"] == "slash" and prior["prev"]["type"] != "bos" and rest[:1] == "/":
                end = "|$" if len(rest) > 1 else ""
                cut = len(_u(prior.get("output")) + _u(prev.get("output")))
                state["output"] = state["output"][:-cut] if cut else ""
                prior["output"] = f"(?:{_u(prior.get('output'))}"
                prev["type"] = "globstar"
                prev["output"] = f"{globstar()}{SLASH_LITERAL}|{SLASH_LITERAL}{end})"
                prev["value"] += value
                state["output"] += prior["output"] + prev["output"]
                state["globstar"] = True
                advance()
                push({"type": "slash", "value": "/", "output": ""})
                continue
            if prior["type"] == "bos" and rest[:1] == "/":
                prev["type"] = "globstar"
                prev["value"] += value
                prev["output"] = f"(?:^|{SLASH_LITERAL}|{globstar()}{SLASH_LITERAL})"
                state["output"] = prev["output"]
                state["globstar"] = True
                advance()
                push({"type": "slash", "value": "/", "output": ""})
                continue
            plen = len(_u(prev.get("output")))
            state["output"] = state["output"][:-plen] if plen else ""
            prev["type"] = "globstar"
            prev["output"] = globstar()
            prev["value"] += value
            state["output"] += prev["output"]
            state["globstar"] = True
            consume(value)
            continue

        token = {"type": "star", "value": value, "output": star}
        if state["index"] == state["start"] or prev["type"] in ("slash", "dot"):
            if prev["type"] == "dot":
                state["output"] += NO_DOT_SLASH
                prev["output"] = _cat(prev.get("output"), NO_DOT_SLASH)
            elif dot:
                state["output"] += NO_DOTS_SLASH
                prev["output"] = _cat(prev.get("output"), NO_DOTS_SLASH)
            else:
                state["output"] += nodot
                prev["output"] = _cat(prev.get("output"), nodot)
            if peek() != "*":
                state["output"] += ONE_CHAR
                prev["output"] = _cat(prev.get("output"), ONE_CHAR)
        push(token)

    while state["brackets"] > 0:
        state["output"] = escape_last(state["output"], "[")
        decrement("brackets")
    while state["parens"] > 0:
        state["output"] = escape_last(state["output"], "(")
        decrement("parens")
    while state["braces"] > 0:
        state["output"] = escape_last(state["output"], "{")
        decrement("braces")

    if cur["prev"]["type"] in ("star", "bracket"):
        push({"type": "maybe_slash", "value": "", "output": f"{SLASH_LITERAL}?"})

    if state["backtrack"]:
        state["output"] = "".join(t["output"] if t.get("output") is not None else t["value"] for t in tokens)
    return state


def _fastpaths(inp: str, options: dict):
    if len(inp) > MAX_LENGTH:
        raise PicomatchSyntaxError(f"Input length: {len(inp)}, exceeds maximum allowed length: {MAX_LENGTH}")
    inp = REPLACEMENTS.get(inp, inp)
    dot = options.get("dot") is True
    nodot = NO_DOTS if dot else NO_DOT
    slash_dot = NO_DOTS_SLASH if dot else NO_DOT
    star = STAR
    globstar = f"(?:(?:(?!{START_ANCHOR}{DOTS_SLASH if dot else DOT_LITERAL}).)*?)"

    def create(s: str):
        if s == "*":
            return f"{nodot}{ONE_CHAR}{star}"
        if s == ".*":
            return f"{DOT_LITERAL}{ONE_CHAR}{star}"
        if s == "*.*":
            return f"{nodot}{star}{DOT_LITERAL}{ONE_CHAR}{star}"
        if s == "*/*":
            return f"{nodot}{star}{SLASH_LITERAL}{ONE_CHAR}{slash_dot}{star}"
        if s == "**":
            return nodot + globstar
        if s == "**/*":
            return f"(?:{nodot}{globstar}{SLASH_LITERAL})?{slash_dot}{ONE_CHAR}{star}"
        if s == "**/*.*":
            return f"(?:{nodot}{globstar}{SLASH_LITERAL})?{slash_dot}{star}{DOT_LITERAL}{ONE_CHAR}{star}"
        if s == "**/.*":
            return f"(?:{nodot}{globstar}{SLASH_LITERAL})?{DOT_LITERAL}{ONE_CHAR}{star}"
        m = re.match(r"^([^\n\r\u2028\u2029]*?)\.(\w+)$", s, re.ASCII)
        if not m or s.endswith("\n"):
            return None
        source = create(m.group(1))
        if not source:
            return None
        return source + DOT_LITERAL + m.group(2)

    source = create(remove_prefix(inp, {}))
    if source:
        source += f"{SLASH_LITERAL}?"
    return source


# -- JavaScript regex source -> Python ------------------------------------------------------

_JS_CLASS_ESCAPES = set("dDwWsSfnrtv")
_JS_ESCAPES = set("dDwWsSbBfnrtv")


def _convert_escape(src: str, i: int, in_class: bool) -> tuple[str, int]:
    """The escape at src[i] (a backslash) as Python reads it; returns (text, next index)."""
    if i + 1 >= len(src):
        return "\\\\", i + 1  # a trailing backslash: a syntax error in JS (caller will fail it)
    c = src[i + 1]
    if c in (_JS_CLASS_ESCAPES if in_class else _JS_ESCAPES):
        return "\\" + c, i + 2
    if c == "b" and in_class:
        return "\\x08", i + 2
    if c == "0" and not (i + 2 < len(src) and src[i + 2].isdigit()):
        return "\\x00", i + 2
    if c == "x" and re.match(r"[0-9A-Fa-f]{2}", src[i + 2:i + 4]):
        return src[i:i + 4], i + 4
    if c == "u" and re.match(r"[0-9A-Fa-f]{4}", src[i + 2:i + 6]):
        return src[i:i + 6], i + 6
    if c.isdigit() and c != "0" and not in_class:
        m = re.match(r"\d+", src[i + 1:])
        return "\\" + m.group(0), i + 1 + len(m.group(0))
    if c == "c" and i + 2 < len(src) and src[i + 2].isalpha():
        return "\\x%02x" % (ord(src[i + 2]) % 32), i + 3
    return re.escape(c), i + 2


_QUANT_BRACE = re.compile(r"\{\d+(?:,\d*)?\}")


def js_regex_to_python(src: str) -> str:
    """Rewrite a JS (non-unicode) regex source for Python's re; raise re.error where JS would
    throw a SyntaxError that Python would not (possessive quantifiers, `(?>`, `(?P`)."""
    out = []
    i = 0
    n = len(src)
    last_quant = False
    while i < n:
        c = src[i]
        quant = False
        if c in "*+?" and i > 0 and src[i - 1] != "(":
            if c == "+" and last_quant:
                raise re.error("nothing to repeat")
            quant = c != "?" or not last_quant
        elif c == "{":
            m = _QUANT_BRACE.match(src, i)
            if m:
                out.append(m.group(0))
                i = m.end()
                last_quant = True
                continue
        last_quant = quant
        if c == "(" and src.startswith("(?", i) and not re.match(r"\(\?(?::|=|!|<=|<!|<[A-Za-z_$])", src[i:]):
            raise re.error("invalid group")
        if c == "\\":
            text, i = _convert_escape(src, i, False)
            out.append(text)
        elif c == "[":
            j = i + 1
            negated = j < n and src[j] == "^"
            if negated:
                j += 1
            if j < n and src[j] == "]":
                out.append("[\\s\\S]" if negated else "(?!)")
                i = j + 1
                continue
            body = []
            while j < n and src[j] != "]":
                if src[j] == "\\":
                    text, j = _convert_escape(src, j, True)
                    body.append(text)
                elif src[j] == "[":
                    body.append("\\[")
                    j += 1
                else:
                    body.append(src[j])
                    j += 1
            if j >= n:
                raise re.error("unterminated character class")
            out.append("[" + ("^" if negated else "") + "".join(body) + "]")
            i = j + 1
        elif c == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
            i += 1
        elif c == "$":
            out.append("\\Z")
            i += 1
        elif c == "(" and src.startswith("(?<", i) and i + 3 < n and src[i + 3] not in "=!":
            out.append("(?P<")
            i += 3
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _compile(js_source: str):
    """The regex a JS source denotes, or None where JS would reject it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return re.compile(js_regex_to_python(js_source), re.ASCII)
    except (re.error, RecursionError, OverflowError):
        return None


_NEVER = re.compile(r"(?!)")


def make_re(pattern: str, options: dict) -> re.Pattern:
    """picomatch.makeRe(pattern, options) for a non-empty string."""
    parsed = {"negated": False, "output": None}
    if options.get("fastpaths") is not False and pattern[:1] in (".", "*"):
        parsed["output"] = _fastpaths(pattern, options)
    if not parsed["output"]:
        parsed = parse(pattern, options)
    source = f"^(?:{parsed['output']})$"
    if parsed.get("negated") is True:
        source = f"^(?!{source}).*$"
    compiled = _compile(source)
    return compiled if compiled is not None else _NEVER


def picomatch(patterns, options: dict):
    """picomatch(glob | glob[], options): a predicate on paths."""
    if isinstance(patterns, list):
        fns = [picomatch(p, options) for p in patterns]
        return lambda s: any(f(s) for f in fns)
    if patterns == "" or not isinstance(patterns, str):
        raise PicomatchTypeError("Expected pattern to be a non-empty string")
    glob = patterns
    regex = make_re(glob, options)

    def matcher(path: str) -> bool:
        if not isinstance(path, str):
            raise PicomatchTypeError("Expected input to be a string")
        if path == "":
            return False
        if path == glob:
            return True
        return regex.search(path) is not None
    return matcher


