"""The mutation operators: each mutant is one change to one node of a module's AST.

A mutant is found by walking a fresh parse of the module in a fixed order (`points`); applying it
re-parses the source, finds the same node by its index in that order and changes it (`apply`). The
mutated tree is compiled as is, so every other line keeps its line number.

Operators: flip a comparison (< <=, > >=, == !=, in / not in, is / is not), swap and/or, drop a
`not`, negate a condition, change a constant (n -> n+1, True <-> False, "s" -> "XXsXX"), swap an
arithmetic operator, drop a unary minus, remove a statement (a call, a raise, an augmented or a
non-first assignment, a delete; `return x` -> `return None`), swap break/continue.

Added after comparing them with mutmut 3.8.1's on skills/ and search/ (the mutants mutmut makes that
none of these made): a string's case (lower, upper), a string method for its mirror (lower/upper,
lstrip/rstrip, find/rfind, index/rindex, ljust/rjust, removeprefix/removesuffix,
partition/rpartition, split/rsplit with a maxsplit), a call's argument set to None or dropped, a
dict(k=v) keyword renamed, any assignment's value set to None (`a = None` -> `a = ""`), `a += b` ->
`a = b`, `break` -> `return`, a conditional expression forced down each branch, a lambda's body set
to None, `^` -> `&`, `~x` -> `x`, `-x` -> `+x`, a `match` without one of its cases, one operator of
an and/or chain alone, a class attribute set to None.

Not mutated: docstrings, imports, annotations, `__all__`, f-string format specs, statements at
module or class level (only their expressions), `pass` and `...`.
"""
from __future__ import annotations

import ast
import copy
import hashlib
from dataclasses import dataclass

CMP_FLIPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
             ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
BIN_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
             ast.Mod: ast.Div, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.LShift: ast.RShift,
             ast.RShift: ast.LShift, ast.Pow: ast.Mult, ast.BitXor: ast.BitAnd}
OP_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.In: "in",
           ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
           ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.BitAnd: "&", ast.BitOr: "|", ast.LShift: "<<",
           ast.RShift: ">>", ast.Pow: "**", ast.And: "and", ast.Or: "or", ast.BitXor: "^"}
# a string method and its mirror (split/rsplit only differ with a maxsplit)
STR_METHOD_SWAPS = {"lower": "upper", "upper": "lower", "lstrip": "rstrip", "rstrip": "lstrip", "find": "rfind",
                    "rfind": "find", "ljust": "rjust", "rjust": "ljust", "index": "rindex", "rindex": "index",
                    "removeprefix": "removesuffix", "removesuffix": "removeprefix", "partition": "rpartition",
                    "rpartition": "partition", "split": "rsplit", "rsplit": "split"}


@dataclass(frozen=True)
class Mutant:
    id: str            # stable across edits elsewhere in the file: module, scope, operator, line text, occurrence
    module: str        # e.g. wsref/tools/read_file.py
    index: int         # the node's position in the walk
    kind: str          # cmp | boolop | boolpart | not | negate | const | strcase | binop | usub | invert | stmt | return | loopctl
    #                    | strmethod | dictkw | argnone | argdrop | assign | augassign | ifexp | lambda | match
    variant: int       # for cmp: which operator of a chain
    line: int
    col: int
    description: str   # `a < b` -> `a <= b`
    scope: tuple | None   # (co_name, co_firstlineno) of the outermost function holding the node; None: module/class level
    scope_name: str    # dotted, for humans: Class.method, or <module>
    lines: tuple = ()  # the lines whose coverage decides which cases run: the simple statement holding the node


def _short(node: ast.AST, limit: int = 70) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # pragma: no cover - unparse handles every node we mutate
        text = type(node).__name__
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _ordered(tree: ast.AST) -> list[ast.AST]:
    return list(ast.walk(tree))


def _first_line(fn) -> int:
    return min([d.lineno for d in getattr(fn, "decorator_list", [])] + [fn.lineno])


class _Collector:
    def __init__(self, tree: ast.Module, module: str, lines: list[str]):
        self.module = module
        self.lines = lines
        self.order = {id(n): i for i, n in enumerate(_ordered(tree))}
        self.points: list[tuple] = []   # (node, kind, variant, description, scope, scope_name)
        self.scope_stack: list = []
        self.names: list[str] = []
        self.stmt_stack: list = []
        self.visit_body(tree.body, level="module")

    # --- traversal with context ---
    def scope(self):
        if not self.scope_stack:
            return None
        fn = self.scope_stack[0]
        return ("<lambda>" if isinstance(fn, ast.Lambda) else fn.name, _first_line(fn))

    def scope_name(self):
        return ".".join(self.names) or "<module>"

    def visit_body(self, body: list[ast.stmt], level: str, fn=None):
        for i, stmt in enumerate(body):
            if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                    and isinstance(stmt.value.value, str):
                continue  # a docstring
            self.visit_stmt(stmt, level, fn)

    def visit_stmt(self, stmt: ast.stmt, level: str, fn):
        self.stmt_stack.append(stmt)
        try:
            self._visit_stmt(stmt, level, fn)
        finally:
            self.stmt_stack.pop()

    def _visit_stmt(self, stmt: ast.stmt, level: str, fn):
        if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
            return
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in stmt.decorator_list:
                self.visit_expr(d)
            self.visit_arguments(stmt.args)
            self.scope_stack.append(stmt)
            self.names.append(stmt.name)
            self.visit_body(stmt.body, "function", stmt)
            self.names.pop()
            self.scope_stack.pop()
            return
        if isinstance(stmt, ast.ClassDef):
            for d in stmt.decorator_list + stmt.bases + [k.value for k in stmt.keywords]:
                self.visit_expr(d)
            self.names.append(stmt.name)
            self.visit_body(stmt.body, "class" if level != "function" else "function", fn)
            self.names.pop()
            return
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets):
            return
        if isinstance(stmt, ast.If) and _is_main_guard(stmt.test):
            return
        if level == "function":
            self.statement_points(stmt, fn)
        elif level == "class" and isinstance(stmt, (ast.Assign, ast.AnnAssign)) and getattr(stmt, "value", None) is not None:
            self.add(stmt, "assign", 0, f"`{_short(stmt)}`: value -> `{_short(ast.Constant(_assigned_none(stmt)))}`")
        # the statement's own expressions, then nested blocks
        for field, value in ast.iter_fields(stmt):
            if field in ("body", "orelse", "finalbody"):
                self.visit_body(value, level, fn) if field != "body" or not isinstance(stmt, ast.ClassDef) else None
            elif field == "handlers":
                for h in value:
                    if h.type is not None:
                        self.visit_expr(h.type)
                    self.visit_body(h.body, level, fn)
            elif field in ("annotation", "returns", "type_comment"):
                continue
            elif field == "cases":
                for c in value:
                    self.visit_body(c.body, level, fn)
            elif isinstance(value, ast.expr):
                self.visit_expr(value, test=field == "test")
            elif isinstance(value, list):
                for v in value:
                    if isinstance(v, ast.expr):
                        self.visit_expr(v)
                    elif isinstance(v, ast.withitem):
                        self.visit_expr(v.context_expr)
                    elif isinstance(v, ast.stmt):
                        self.visit_stmt(v, level, fn)

    def visit_arguments(self, args: ast.arguments):
        for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self.visit_expr(d)

    def visit_expr(self, node: ast.expr, test: bool = False):
        if test and not isinstance(node, ast.Compare) and not (
                isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
            self.add(node, "negate", 0, f"`{_short(node)}` -> `not ({_short(node)})`")
        self.expr_points(node)
        if isinstance(node, ast.Lambda):
            self.visit_arguments(node.args)
            self.add(node, "lambda", 0, f"`{_short(node)}`: body -> `{_short(ast.Constant(_lambda_body(node)))}`")
            self.scope_stack.append(node)
            self.visit_expr(node.body)
            self.scope_stack.pop()
            return
        if isinstance(node, ast.JoinedStr):
            for v in node.values:
                if isinstance(v, ast.FormattedValue):
                    self.visit_expr(v.value)
                else:
                    self.visit_expr(v)
            return
        if isinstance(node, ast.IfExp):
            for variant, forced in enumerate(("and False", "or True")):
                self.add(node, "ifexp", variant, f"`{_short(node)}`: test -> `({_short(node.test, 30)}) {forced}`")
            self.visit_expr(node.test, test=True)
            self.visit_expr(node.body)
            self.visit_expr(node.orelse)
            return
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for child in ([node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]):
                self.visit_expr(child)
            for gen in node.generators:
                self.visit_expr(gen.iter)
                for cond in gen.ifs:
                    self.visit_expr(cond, test=True)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.visit_expr(child)
            elif isinstance(child, ast.keyword):
                self.visit_expr(child.value)

    # --- the operators ---
    def add(self, node, kind, variant, description):
        stmt = self.stmt_stack[-1] if self.stmt_stack else node
        compound = isinstance(stmt, (ast.If, ast.While, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Try,
                                     ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Match))
        span = node if compound or stmt is node else stmt
        lines = (span.lineno, span.end_lineno or span.lineno)
        self.points.append((node, kind, variant, description, self.scope(), self.scope_name(), lines))

    def expr_points(self, node: ast.expr):
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                new = CMP_FLIPS.get(type(op))
                if new:
                    left = node.left if i == 0 else node.comparators[i - 1]
                    self.add(node, "cmp", i, f"`{_short(left, 30)} {OP_TEXT[type(op)]} {_short(node.comparators[i], 30)}`"
                                             f" -> `{OP_TEXT[new]}`")
        elif isinstance(node, ast.BoolOp):
            other = "or" if isinstance(node.op, ast.And) else "and"
            self.add(node, "boolop", 0, f"`{_short(node)}`: `{OP_TEXT[type(node.op)]}` -> `{other}`")
            if len(node.values) > 2:   # a chain: each operator alone, as the left-nested parse mutmut reads has it
                for i in range(len(node.values) - 1):
                    self.add(node, "boolpart", i, f"`{_short(node)}`: operator {i + 1} `{OP_TEXT[type(node.op)]}`"
                                                  f" -> `{other}`")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.add(node, "not", 0, f"`{_short(node)}` -> `{_short(node.operand)}`")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            self.add(node, "usub", 0, f"`{_short(node)}` -> `{_short(node.operand)}`")
            self.add(node, "usub", 1, f"`{_short(node)}` -> `+{_short(node.operand)}`")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            self.add(node, "invert", 0, f"`{_short(node)}` -> `{_short(node.operand)}`")
        elif isinstance(node, ast.BinOp) and type(node.op) in BIN_SWAPS:
            self.add(node, "binop", 0, f"`{_short(node)}`: `{OP_TEXT[type(node.op)]}` -> "
                                       f"`{OP_TEXT[BIN_SWAPS[type(node.op)]]}`")
        elif isinstance(node, ast.Constant):
            new = _const_mutation(node.value)
            if new is not _NO:
                self.add(node, "const", 0, f"`{_short(node, 40)}` -> `{_short(ast.Constant(new), 40)}`")
            if isinstance(node.value, str):
                for variant, case in enumerate((str.lower, str.upper)):
                    if case(node.value) != node.value:
                        self.add(node, "strcase", variant,
                                 f"`{_short(node, 40)}` -> `{_short(ast.Constant(case(node.value)), 40)}`")
        elif isinstance(node, ast.Call):
            self.call_points(node)

    def call_points(self, node: ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in STR_METHOD_SWAPS and (
                func.attr not in ("split", "rsplit") or len(node.args) == 2 or any(k.arg == "maxsplit" for k in node.keywords)):
            self.add(node, "strmethod", 0, f"`{_short(node, 50)}`: `.{func.attr}(` -> `.{STR_METHOD_SWAPS[func.attr]}(`")
        if isinstance(func, ast.Name) and func.id == "dict" and not node.args and all(k.arg for k in node.keywords):
            for i, k in enumerate(node.keywords):
                self.add(node, "dictkw", i, f"`{_short(node, 50)}`: `{k.arg}=` -> `{k.arg}XX=`")
        args = _call_args(node)
        for i, a in enumerate(args):
            value = a.value if isinstance(a, ast.keyword) else a
            if not isinstance(value, ast.Starred) and not (isinstance(a, ast.keyword) and a.arg is None) \
                    and not (isinstance(value, ast.Constant) and value.value is None):
                self.add(node, "argnone", i, f"`{_short(node, 50)}`: argument {i + 1} `{_short(value, 20)}` -> `None`")
        if len(args) > 1:
            for i, a in enumerate(args):
                self.add(node, "argdrop", i, f"`{_short(node, 50)}`: drop argument {i + 1} `{_short(a, 20)}`")

    def statement_points(self, stmt: ast.stmt, fn):
        text = _short(stmt)
        if isinstance(stmt, ast.Return):
            if stmt.value is not None and not (isinstance(stmt.value, ast.Constant) and stmt.value.value is None):
                self.add(stmt, "return", 0, f"`{text}` -> `return None`")
        elif isinstance(stmt, (ast.Raise, ast.Delete)) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, (ast.Call, ast.Await, ast.Yield))):
            self.add(stmt, "stmt", 0, f"remove `{text}`")
        elif isinstance(stmt, ast.AugAssign):
            self.add(stmt, "stmt", 0, f"remove `{text}`")
            self.add(stmt, "augassign", 0, f"`{text}` -> `{_short(stmt.target)} = {_short(stmt.value)}`")
            if type(stmt.op) in BIN_SWAPS:
                self.add(stmt, "binop", 0, f"`{text}`: `{OP_TEXT[type(stmt.op)]}=` -> `{OP_TEXT[BIN_SWAPS[type(stmt.op)]]}=`")
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and getattr(stmt, "value", None) is not None:
            self.add(stmt, "assign", 0, f"`{text}`: value -> `{_short(ast.Constant(_assigned_none(stmt)))}`")
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if all(isinstance(t, (ast.Attribute, ast.Subscript)) or
                   (isinstance(t, ast.Name) and _assigned_before(fn, t.id, stmt)) for t in targets):
                self.add(stmt, "stmt", 0, f"remove `{text}`")
        elif isinstance(stmt, (ast.Break, ast.Continue)):
            other = "continue" if isinstance(stmt, ast.Break) else "break"
            self.add(stmt, "loopctl", 0, f"`{text}` -> `{other}`")
            if isinstance(stmt, ast.Break):
                self.add(stmt, "loopctl", 1, f"`{text}` -> `return`")
        elif isinstance(stmt, ast.Match) and len(stmt.cases) > 1:
            for i, case in enumerate(stmt.cases):
                self.add(stmt, "match", i, f"`match`: drop `case {_short(case.pattern, 30)}`")


_NO = object()


def _const_mutation(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 1.0
    if isinstance(value, str):
        return "XX" + value + "XX"
    if isinstance(value, bytes):
        return b"XX" + value + b"XX"
    return _NO


def _call_args(node: ast.Call) -> list:
    return list(node.args) + list(node.keywords)


def _lambda_body(node: ast.Lambda):
    return 0 if isinstance(node.body, ast.Constant) and node.body.value is None else None


def _assigned_none(stmt):
    return "" if isinstance(stmt.value, ast.Constant) and stmt.value.value is None else None


def _is_main_guard(test) -> bool:
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__")


def _assigned_before(fn, name: str, stmt: ast.stmt) -> bool:
    """Whether `name` is bound earlier in the function (so removing this assignment leaves the old value)."""
    if fn is None:
        return False
    if any(a.arg == name for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs):
        return True
    for node in ast.walk(fn):
        if node is stmt:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == name and \
                (node.lineno, node.col_offset) < (stmt.lineno, stmt.col_offset):
            return True
    return False


def points(source: str, module: str) -> list[Mutant]:
    tree = ast.parse(source)
    lines = source.splitlines()
    col = _Collector(tree, module, lines)
    seen: dict[str, int] = {}
    out = []
    for node, kind, variant, description, scope, scope_name, span in col.points:
        line_text = lines[node.lineno - 1].strip() if node.lineno - 1 < len(lines) else ""
        base = hashlib.sha1(f"{kind}|{variant}|{description}|{line_text}".encode()).hexdigest()[:10]
        key = f"{module}:{scope_name}:{kind}:{base}"
        n = seen.get(key, 0)
        seen[key] = n + 1
        out.append(Mutant(id=key + (f"#{n}" if n else ""), module=module, index=col.order[id(node)], kind=kind,
                          variant=variant, line=node.lineno, col=node.col_offset, description=description,
                          scope=scope, scope_name=scope_name, lines=span))
    return out


def apply(source: str, mutant: Mutant) -> ast.Module:
    """The module's tree with this one mutant applied."""
    tree = ast.parse(source)
    nodes = _ordered(tree)
    target = nodes[mutant.index]
    parents = {}
    for parent in nodes:
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if isinstance(v, ast.AST):
                        parents[id(v)] = (parent, field, i)
            elif isinstance(value, ast.AST):
                parents[id(value)] = (parent, field, None)
    new = _mutated(target, mutant)
    if new is not target:
        parent, field, i = parents[id(target)]
        if i is None:
            setattr(parent, field, new)
        else:
            getattr(parent, field)[i] = new
    ast.fix_missing_locations(tree)
    return tree


def _mutated(node, m: Mutant):
    k = m.kind
    if k == "cmp":
        node.ops[m.variant] = CMP_FLIPS[type(node.ops[m.variant])]()
        return node
    if k == "boolop":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return node
    if k == "usub" and m.variant == 1:
        node.op = ast.UAdd()
        return node
    if k in ("not", "usub", "invert"):
        return node.operand
    if k == "boolpart":
        swapped = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        values = node.values
        left = values[0] if m.variant == 0 else ast.BoolOp(op=type(node.op)(), values=values[:m.variant + 1])
        inner = ast.BoolOp(op=swapped, values=[left, values[m.variant + 1]])
        rest = values[m.variant + 2:]
        return ast.copy_location(ast.BoolOp(op=node.op, values=[inner, *rest]) if rest else inner, node)
    if k == "negate":
        return ast.copy_location(ast.UnaryOp(ast.Not(), copy.deepcopy(node)), node)
    if k == "binop":
        node.op = BIN_SWAPS[type(node.op)]()
        return node
    if k == "const":
        node.value = _const_mutation(node.value)
        return node
    if k == "stmt":
        return ast.copy_location(ast.Pass(), node)
    if k == "return":
        node.value = None
        return node
    if k == "loopctl":
        if m.variant == 1:
            return ast.copy_location(ast.Return(value=None), node)
        return ast.copy_location(ast.Continue() if isinstance(node, ast.Break) else ast.Break(), node)
    if k == "strcase":
        node.value = node.value.lower() if m.variant == 0 else node.value.upper()
        return node
    if k == "strmethod":
        node.func.attr = STR_METHOD_SWAPS[node.func.attr]
        return node
    if k == "dictkw":
        node.keywords[m.variant].arg += "XX"
        return node
    if k in ("argnone", "argdrop"):
        n = len(node.args)
        if k == "argdrop":
            del (node.args if m.variant < n else node.keywords)[m.variant if m.variant < n else m.variant - n]
        elif m.variant < n:
            node.args[m.variant] = ast.copy_location(ast.Constant(None), node.args[m.variant])
        else:
            node.keywords[m.variant - n].value = ast.copy_location(ast.Constant(None), node.keywords[m.variant - n].value)
        return node
    if k == "assign":
        node.value = ast.copy_location(ast.Constant(_assigned_none(node)), node.value)
        return node
    if k == "augassign":
        target = copy.deepcopy(node.target)
        target.ctx = ast.Store()
        return ast.copy_location(ast.Assign(targets=[target], value=node.value), node)
    if k == "ifexp":
        forced = ast.BoolOp(op=ast.And() if m.variant == 0 else ast.Or(),
                            values=[node.test, ast.Constant(m.variant == 1)])
        node.test = ast.copy_location(forced, node.test)
        return node
    if k == "lambda":
        node.body = ast.copy_location(ast.Constant(_lambda_body(node)), node.body)
        return node
    if k == "match":
        del node.cases[m.variant]
        return node
    raise ValueError(k)
