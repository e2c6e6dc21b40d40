"""Compare this tool's mutants with an outside mutator's: mutmut's, made by mutmut itself.

Run it with a Python that has mutmut installed (it is not a dependency of wsconf), from the checkout:

    python -m venv /tmp/mm && /tmp/mm/bin/pip install mutmut==3.8.1
    /tmp/mm/bin/python -m tools.mutation.compare_mutmut wsref/skills wsref/search [--results-dir .mutation]

For each module, every mutant mutmut's own operators make (mutmut.mutation.file_mutation.create_mutations,
inside functions, as mutmut runs them) is compiled and its tree compared with the tree of every mutant
of tools/mutation/operators.py: the same tree is the same program. It prints, per module and per
mutmut operator, how many of mutmut's mutants this tool also makes, and lists the rest: what the
operators lack. With --results-dir, the verdicts this tool's run gave the matched mutants are mutmut's
score on them (the same program run against the same cases), survivors judged equivalent in
tools/mutation/verdicts.yaml counted apart as the summary counts them.
"""
from __future__ import annotations

import argparse
import ast
import collections
import json
import sys
from pathlib import Path

from . import operators

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "reference"


def _dump(tree: ast.AST) -> str:
    return ast.dump(tree, include_attributes=False)


def mutmut_mutants(source: str, module: str) -> list[tuple[str, str, str]]:
    """(operator, mutated module source, the changed line) for each of mutmut's mutants in functions."""
    import libcst as cst
    from mutmut.mutation import pragma_handling
    from mutmut.mutation.file_mutation import create_mutations
    # mutmut reads its configuration (setup.cfg or pyproject.toml) for patterns not to mutate: none here
    pragma_handling.config = lambda: argparse.Namespace(do_not_mutate_patterns=[])
    from mutmut.mutation.mutators import mutation_operators
    names = {}
    for node_type, op in mutation_operators:
        names.setdefault(op, op.__name__.removeprefix("operator_"))
    tree, mutations, _, _ = create_mutations(module, source)
    out = []
    for mutation in mutations:
        if mutation.contained_by_top_level_function is None:
            continue   # mutmut applies only what lies inside a function or method (its trampolines)
        operator = _operator_of(mutation, mutation_operators) or "?"
        mutated = tree.deep_replace(mutation.original_node, mutation.mutated_node)
        assert isinstance(mutated, cst.Module)
        code = tree.code_for_node(mutation.original_node).strip().splitlines()
        out.append((operator, mutated.code, code[0][:80] if code else ""))
    return out


def _operator_of(mutation, mutation_operators) -> str | None:
    for node_type, op in mutation_operators:
        if isinstance(mutation.original_node, node_type):
            for made in op(mutation.original_node):
                if made.deep_equals(mutation.mutated_node):
                    return op.__name__.removeprefix("operator_")
    return None


def judged_status(status: str, verdict: dict | None) -> str:
    """A run's status of a mutant with its verdict: a survivor judged equivalent or other-platform is
    counted apart, as the summary counts it."""
    if status in ("survived", "uncovered") and verdict and verdict.get("verdict") in ("equivalent", "other_platform"):
        return "equivalent"
    return status


def mutmut_score(counts: collections.Counter) -> float | None:
    """mutmut's mutants run here: (killed + timeout) / (killed + timeout + survived + uncovered)."""
    killed = counts["here: killed"] + counts["here: timeout"]
    total = killed + counts["here: survived"] + counts["here: uncovered"]
    return killed / total if total else None


def compare(module: str, results_dir: Path | None) -> dict:
    source = (REFERENCE / module).read_text()
    ours = {}
    for m in operators.points(source, module):
        try:
            ours.setdefault(_dump(operators.apply(source, m)), m)
        except Exception:   # pragma: no cover - every operator applies to the tree it was found in
            continue
    status = {}
    if results_dir is not None:
        path = results_dir / "results" / (module.replace("/", "__") + ".json")
        if path.exists():
            import yaml
            verdicts = yaml.safe_load((REPO / "tools" / "mutation" / "verdicts.yaml").read_text())["verdicts"]
            status = {r["id"]: judged_status(r["status"], verdicts.get(r["id"]))
                      for r in json.loads(path.read_text())["mutants"]}
    per_op: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    missing = []
    for operator, code, line in mutmut_mutants(source, module):
        try:
            key = _dump(ast.parse(code))
        except SyntaxError:
            per_op[operator]["invalid"] += 1
            continue
        if key == _dump(ast.parse(source)):
            per_op[operator]["no change"] += 1
            continue
        match = ours.get(key)
        if match is None:
            per_op[operator]["not made here"] += 1
            missing.append((operator, line))
        else:
            per_op[operator]["made here"] += 1
            per_op[operator]["here: " + status.get(match.id, "not run")] += 1
    return {"module": module, "operators": per_op, "missing": missing}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.mutation.compare_mutmut", description=__doc__.splitlines()[0])
    p.add_argument("paths", nargs="+", help="wsref/... modules or folders")
    p.add_argument("--results-dir", type=Path, default=None, help="a tools.mutation results folder (.mutation)")
    args = p.parse_args(argv)
    modules = []
    for given in args.paths:
        path = REFERENCE / given
        found = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        modules += [str(f.relative_to(REFERENCE)) for f in found if f.name != "__init__.py"]
    totals: collections.Counter = collections.Counter()
    by_operator: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for module in modules:
        result = compare(module, args.results_dir)
        made = sum(c["made here"] for c in result["operators"].values())
        lacking = sum(c["not made here"] for c in result["operators"].values())
        score = mutmut_score(sum(result["operators"].values(), collections.Counter()))
        print(f"{module}: {made + lacking} mutmut mutants, {made} made here too, {lacking} not"
              + (f"; mutmut's score {score:.3f}" if score is not None else ""), flush=True)
        for operator, line in result["missing"]:
            print(f"  not made here: {operator}: {line}")
        for operator, c in result["operators"].items():
            by_operator[operator].update(c)
            totals.update(c)
    print("\nby mutmut operator (made here / not made here; and, for those made here, their status in this tool's run):")
    for operator in sorted(by_operator):
        c = by_operator[operator]
        here = ", ".join(f"{k[6:]} {v}" for k, v in sorted(c.items()) if k.startswith("here: "))
        print(f"  {operator}: {c['made here']} / {c['not made here']}" + (f" ({here})" if here else ""))
    judged = totals["here: killed"] + totals["here: timeout"] + totals["here: survived"] + totals["here: uncovered"]
    if judged:
        print(f"mutmut's score (killed / killed + survived, equivalent ones apart: {totals['here: equivalent']}): "
              f"{mutmut_score(totals):.3f}")
    print(f"\nall: {totals['made here'] + totals['not made here']} mutmut mutants, {totals['made here']} made here too, "
          f"{totals['not made here']} not")
    if judged:
        print(f"mutmut's mutants that this tool ran: {judged}; killed {totals['here: killed'] + totals['here: timeout']}, "
              f"survived {totals['here: survived'] + totals['here: uncovered']} (before verdicts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
