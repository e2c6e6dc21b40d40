"""tools/mutation's operators: each one makes the program it says, including those added after comparing
them with mutmut's (a string's case, string method mirrors, call arguments, assignments to None, forced
conditional branches, lambdas, break -> return, ^ and ~, match cases)."""
from __future__ import annotations

import ast

from tools.mutation import operators

SOURCE = '''
def f(items, text, n):
    out = []
    total = 0
    for item in items:
        if item is None:
            break
        total += item ^ n
    name = "Value" if total else "none"
    key = dict(a=1, b=2)
    pick = lambda: text.lower()
    head, _, tail = text.partition(":")
    parts = text.split(",", 1)
    out.append(name.strip())
    match n:
        case 1:
            return ~n
        case _:
            return out
'''


def _mutated(description_part: str, kind: str) -> str:
    found = [m for m in operators.points(SOURCE, "m.py") if m.kind == kind and description_part in m.description]
    assert len(found) == 1, [m.description for m in operators.points(SOURCE, "m.py") if m.kind == kind]
    tree = operators.apply(SOURCE, found[0])
    compile(tree, "m.py", "exec")
    return ast.unparse(tree)


def test_the_operators_added_from_mutmut():
    assert "name = 'value' if total else 'none'" in _mutated("'value'", "strcase")
    assert "name = 'VALUE' if total else 'none'" in _mutated("'VALUE'", "strcase")
    assert "pick = lambda: text.upper()" in _mutated(".lower(", "strmethod")
    assert "text.rpartition(':')" in _mutated(".partition(", "strmethod")
    assert "text.rsplit(',', 1)" in _mutated(".split(", "strmethod")
    assert "key = dict(aXX=1, b=2)" in _mutated("`a=`", "dictkw")
    assert "out.append(None)" in _mutated("out.append(name.strip())`: argument 1", "argnone")
    assert "parts = text.split(None, 1)" in _mutated("text.split(',', 1)`: argument 1", "argnone")
    assert "parts = text.split(',')" in _mutated("text.split(',', 1)`: drop argument 2", "argdrop")
    assert "total = None" in _mutated("`total = 0`", "assign")
    assert "total = item ^ n" in _mutated("total += item ^ n", "augassign")
    assert "total += item & n" in _mutated("`^` -> `&`", "binop")
    assert "if item is None:\n            return" in _mutated("`return`", "loopctl")
    assert "'Value' if total and False else 'none'" in _mutated("and False", "ifexp")
    assert "'Value' if total or True else 'none'" in _mutated("or True", "ifexp")
    assert "pick = lambda: None" in _mutated("body", "lambda")
    assert "return n" in _mutated("~n", "invert")
    chain = "def g(a, b, c):\n    return a or b or c\n"
    parts = [ast.unparse(operators.apply(chain, m)) for m in operators.points(chain, "m.py") if m.kind == "boolpart"]
    assert parts == ["def g(a, b, c):\n    return a and b or c", "def g(a, b, c):\n    return (a or b) and c"]
    assert "return +n" in ast.unparse(operators.apply("def h(n):\n    return -n\n", next(
        m for m in operators.points("def h(n):\n    return -n\n", "m.py") if m.kind == "usub" and m.variant == 1)))
    dropped = _mutated("drop `case 1`", "match")
    assert "case 1:" not in dropped and "case _:" in dropped


def test_every_mutant_of_the_reference_s_newest_modules_compiles():
    from tools.mutation import engine
    for module in ("wsref/skills/schemas.py", "wsref/search/bm25.py", "wsref/glob.py"):
        source = (engine.REFERENCE / module).read_text()
        for m in operators.points(source, module):
            compile(operators.apply(source, m), module, "exec")


def test_mutmut_s_score_counts_judged_equivalents_apart():
    import collections

    from tools.mutation.compare_mutmut import judged_status, mutmut_score
    assert judged_status("survived", {"verdict": "equivalent"}) == "equivalent"
    assert judged_status("uncovered", {"verdict": "gap"}) == "uncovered"
    assert judged_status("killed", {"verdict": "equivalent"}) == "killed"   # a kill contradicts the verdict
    counts = collections.Counter({"here: killed": 97, "here: timeout": 1, "here: survived": 1,
                                  "here: uncovered": 1, "here: equivalent": 40})
    assert mutmut_score(counts) == 0.98
    assert mutmut_score(collections.Counter()) is None
