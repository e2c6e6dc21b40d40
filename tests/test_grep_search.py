"""grep's whole-file search (wsref.js.regexp_lines) gives exactly what testing every line does.

Testing each line with regexp.py is what was checked against node on 45,000 patterns; the whole-file
search, the literal and RE2 prefilters and the code-point search must agree with it on every pattern and
text, including the ones where they could differ: ^ and $, \\b, lookarounds at line edges, classes
and back references that can match a newline, astral characters and lone surrogates, /i."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wsref.js.regexp import JSRegExpSyntaxError, compile_js, to_units
from wsref.js.regexp_lines import LineSearch

ATOMS = ["a", "b", "A", "K", "s", "é", "É", "ſ", "\u212a", "😀", "\\uD83D", "\\uDE00", "中", "-", "_", "1",
         ".", "\\n", "\\r", "\\s", "\\S", "\\d", "\\w", "\\W", "[^a]", "[a-c]", "[\\s\\S]", "[^]", "[😀]",
         "\\b", "\\B", "^", "$", "\\x20", " ", "\\u2028", "[A-Z]", "[^\\n]", "(?:)", "\\t"]
LOOKS = ["(?={})", "(?!{})", "(?<={})", "(?<!{})"]
QUANTS = ["*", "+", "?", "{2}", "{0,2}", "{1,}", "*?", "+?"]


def _compose(children):
    return st.one_of(
        st.lists(children, min_size=2, max_size=4).map("".join),
        st.lists(children, min_size=2, max_size=3).map("|".join),
        children.map(lambda p: f"({p})"),
        children.map(lambda p: f"(?:{p})"),
        st.tuples(children, st.sampled_from(QUANTS)).map(lambda t: f"(?:{t[0]}){t[1]}"),
        st.tuples(st.sampled_from(LOOKS), children).map(lambda t: t[0].format(t[1])),
        children.map(lambda p: f"({p})\\1"),
    )


EXAMPLES = int(os.environ.get("WSREF_GREP_EXAMPLES", "1000"))  # WSREF_GREP_EXAMPLES=30000 by hand
PATTERNS = st.recursive(st.sampled_from(ATOMS), _compose, max_leaves=8)
TEXT = st.text(alphabet=st.sampled_from(list("aAbsSK1- _\n\n\r\t\u2028éÉſ\u212a中😀\ufffd.")), max_size=60)


def per_line(rx, text):
    """What grep did before: every line as UTF-16 units, one search each."""
    out = []
    for i, line in enumerate(to_units(text).split("\n")):
        column = rx.search(line)
        if column is not None:
            out.append((i, column))
    return out


def check(pattern: str, flags: str, text: str):
    try:
        rx = compile_js(pattern, flags)
    except JSRegExpSyntaxError:
        return
    search = LineSearch(rx)
    want = per_line(rx, text)
    assert list(search.matches(text)) == want, (pattern, flags, text, search.exact, search.units_only)
    if search.re2 is not None:  # and without RE2's prefilter, where google-re2 is not installed
        search.re2 = None
        assert list(search.matches(text)) == want, (pattern, flags, text, "without re2")
    if want:
        assert search.may_match(text.encode("utf-8")), (pattern, flags, text, search.literals)


# regexp.py's own matcher raises the recursion limit for long subjects; hypothesis notices
@pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PATTERNS, st.sampled_from(["g", "gi"]), TEXT)
def test_whole_file_search_equals_testing_every_line(pattern, flags, text):
    check(pattern, flags, text)


def test_edges_that_a_whole_text_search_could_get_wrong():
    for pattern, text in [
        ("^", "\n\n"), ("$", "a\nb\n"), ("^$", "\n\na"), ("a$", "a\na"), ("^a", "ba\na"), ("\\ba", "b\na"),
        ("a\\b", "a\nab"), ("(?<!a)b", "a\nb"), ("(?<=\\n)a", "\na"), ("a(?=\\s)", "a\na "), ("a(?!\\s)", "a\na "),
        ("a\\s*b", "a\nb\na b"), ("[^x]+$", "ab\ncd"), ("\\S+\\s", "ab\ncd "), ("(a)\\1", "a\naa"), ("x*", "a\n"),
        ("😀", "a😀b\n😀"), ("b", "😀😀b\nb"), (".b", "😀b"), ("[^a]{2}", "😀\nxy"), ("\\uD83D", "x😀"),
        ("ZEPHYR", "zephyr\nZEPHYR"), ("k", "\u212a\nK"), ("s", "ſ\nS"), ("é", "É\né"), ("a|b\\n", "b\na"),
    ]:
        for flags in ("g", "gi"):
            check(pattern, flags, text)


NODE_ORACLE = r"""
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
const out = lines.map((l) => {
  const {pattern, flags, text} = JSON.parse(l);
  let regex;
  try { regex = new RegExp(pattern, flags); } catch (e) { return null; }
  const found = [];
  text.split('\n').forEach((line, i) => {  // tools/grep.ts, one exec per line
    regex.lastIndex = 0;
    const m = regex.exec(line);
    if (m) found.push([i, m.index]);
  });
  return found;
});
process.stdout.write(JSON.stringify(out));
"""


def _generated(rng, depth=0):
    roll = rng.random()
    if depth >= 3 or roll < 0.35:
        return rng.choice(ATOMS)
    kids = [_generated(rng, depth + 1) for _ in range(rng.randint(2, 3))]
    if roll < 0.55:
        return "".join(kids)
    if roll < 0.65:
        return "|".join(kids)
    if roll < 0.75:
        return f"(?:{kids[0]}){rng.choice(QUANTS)}"
    if roll < 0.85:
        return rng.choice(LOOKS).format(kids[0])
    if roll < 0.92:
        return f"({kids[0]})\\1{kids[1]}"
    return f"({kids[0]}){kids[1]}"


def test_whole_file_search_agrees_with_node_itself():
    """The same generated patterns and texts through V8 (grep.ts's loop), compared with the
    whole-file search directly (so regexp.py's per-line engine is checked again on the way)."""
    import json
    import random
    import shutil
    import subprocess

    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    rng = random.Random(19)
    alphabet = list("aAbsSK1- _\n\n\r\t\u2028éÉſ\u212a中😀\ufffd.")
    cases = [{"pattern": _generated(rng), "flags": rng.choice(["g", "gi"]),
              "text": "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))} for _ in range(2000)]
    payload = "\n".join(json.dumps(c) for c in cases) + "\n"
    proc = subprocess.run(["node", "-e", NODE_ORACLE], input=payload, capture_output=True, text=True,
                          encoding="utf-8", errors="surrogatepass", timeout=120)
    assert proc.returncode == 0, proc.stderr
    answers = json.loads(proc.stdout)
    compared = 0
    for case, want in zip(cases, answers):
        try:
            rx = compile_js(case["pattern"], case["flags"])
        except JSRegExpSyntaxError:
            assert want is None, case
            continue
        assert want is not None, case
        got = [list(m) for m in LineSearch(rx).matches(case["text"])]
        assert got == want, case
        compared += 1
    assert compared > 1500
