"""`wsconf list`, `show`, `coverage`, `lint` and `export`: the spec read without reading YAML."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..reports.case_text import case_lines
from ..spec.loader import quote_problems
from .common import PAGES_DIR, spec_of


def cmd_list(args) -> int:
    spec = spec_of(args)
    for case in spec.cases:
        if args.tool and case.tool != args.tool:
            continue
        if args.tag and args.tag not in case.tags:
            continue
        print(f"{case.id:<60} {case.title}")
    return 0


def cmd_show(args) -> int:
    spec = spec_of(args)
    case = spec.cases_by_id.get(args.case_id)
    if case is None:
        close = [c.id for c in spec.cases if args.case_id in c.id][:10]
        print(f"no case {args.case_id!r}" + (f"; did you mean: {', '.join(close)}" if close else ""), file=sys.stderr)
        return 2
    print("\n".join(case_lines(case, spec)))
    return 0

def cmd_upstream_tests(spec, show_gaps: bool) -> int:
    from ..spec.upstream_tests import load_upstream_tests, summary
    tests, errors = load_upstream_tests(spec.root, {c.id for c in spec.cases})
    for err in errors:
        print(err, file=sys.stderr)
    print("\n".join(summary(tests)))
    if show_gaps:
        print()
        for t in tests:
            if t.kind == "gap":
                print(f"{t.where}  {t.file.removeprefix('packages/core/src/workspace/')} :: {t.name}\n    {t.text}")
    return 1 if errors else 0


def cmd_coverage(args) -> int:
    spec = spec_of(args)
    if args.upstream_tests:
        return cmd_upstream_tests(spec, args.gaps)
    checked: dict[str, list[str]] = {cid: [] for cid in spec.claims}
    for case in spec.cases:
        for cid in case.claims:
            checked.setdefault(cid, []).append(case.id)
    if args.errata:
        rows = [c for c in spec.claims.values() if c.status in ("contradicted", "imprecise")]
        print(f"{len(rows)} claims where the pages are wrong or imprecise about @mastra/core 1.71.0:\n")
        for c in rows:
            print(f"{c.id} [{c.status}] ({c.page})\n  page: {c.quote}\n  observed: {c.observed}")
            for case_id in checked.get(c.id, []):
                print(f"  case: {case_id}")
            print()
        return 0
    uncovered = []
    for cid, claim in spec.claims.items():
        cases = checked[cid]
        if not cases and claim.status != "uncheckable":
            uncovered.append(cid)
        if args.uncovered:
            continue
        state = f"[{claim.status}] " if claim.status else ""
        print(f"{cid}  {state}{len(cases)} case(s)" + ("" if not cases else ": " + ", ".join(cases[:6])
                                                       + (" ..." if len(cases) > 6 else "")))
    if args.uncovered:
        print("\n".join(uncovered))
    n = len(spec.claims)
    uncheckable = sum(1 for c in spec.claims.values() if c.status == "uncheckable")
    print(f"\n{n} claims: {n - len(uncovered) - uncheckable} checked by a case, {len(uncovered)} not yet, "
          f"{uncheckable} uncheckable; {len(spec.cases)} cases", file=sys.stderr)
    return 0


def _test_quote_problems(spec) -> list[str]:
    """`ut.` claims quote an upstream test: its page is the test file, its quote the test's name
    as spec/upstream-tests/ records it."""
    from ..spec.upstream_tests import load_upstream_tests
    tests, _ = load_upstream_tests(spec.root, {c.id for c in spec.cases})
    names = {(t.file, t.name) for t in tests}
    return [f"{c.id}: no upstream test {c.quote!r} in {c.page}" for c in spec.claims.values()
            if c.page.endswith(".test.ts") and (c.page, c.quote) not in names]


def cmd_lint(args) -> int:
    spec = spec_of(args)
    problems = [str(e) for e in spec.errors]
    pages = Path(args.pages) if args.pages else PAGES_DIR
    if pages.exists():
        problems += quote_problems(spec, pages)
    else:
        print(f"note: pages not found at {pages}; quotes not checked", file=sys.stderr)
    problems += _test_quote_problems(spec)
    for p in problems:
        print(p)
    print(f"{len(spec.claims)} claims, {len(spec.capabilities)} capabilities, {len(spec.cases)} cases; "
          f"{len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


def cmd_export(args) -> int:
    spec = spec_of(args)
    if spec.errors:
        for e in spec.errors:
            print(e, file=sys.stderr)
        return 1
    corpus = {
        "format": 1,
        "upstream": {"package": "@mastra/core", "version": "1.71.0"},
        "capabilities": [{"id": k, "description": v} for k, v in spec.capabilities.items()],
        "claims": [{k: v for k, v in vars(c).items() if v is not None} for c in spec.claims.values()],
        "cases": [c.raw for c in spec.cases],
    }
    text = json.dumps(corpus, indent=1)  # ASCII escapes: lone surrogates in cases survive
    if args.output == "-":
        print(text)
    else:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {len(spec.cases)} cases, {len(spec.claims)} claims to {args.output}", file=sys.stderr)
    return 0


def register(sub) -> None:
    ls = sub.add_parser("list", help="list cases")
    ls.add_argument("--tool")
    ls.add_argument("--tag")
    ls.set_defaults(func=cmd_list)

    show = sub.add_parser("show", help="a case in plain words: claims, setup, calls, expected results")
    show.add_argument("case_id")
    show.set_defaults(func=cmd_show)

    cov = sub.add_parser("coverage", help="every claim with the cases that check it")
    cov.add_argument("--uncovered", action="store_true", help="only the claims no case checks")
    cov.add_argument("--errata", action="store_true", help="only the claims the pages get wrong (with what was observed)")
    cov.add_argument("--upstream-tests", action="store_true",
                     help="the upstream's own tests (spec/upstream-tests/) by file: pinned, gap, not in 1.71.0, unobservable")
    cov.add_argument("--gaps", action="store_true", help="with --upstream-tests: list every gap (no case yet)")
    cov.set_defaults(func=cmd_coverage)

    lint = sub.add_parser("lint", help="validate the spec files and the claim quotes")
    lint.add_argument("--pages", default=None, help="folder with the documentation pages (default ../shared/seeds)")
    lint.set_defaults(func=cmd_lint)

    export = sub.add_parser("export", help="write the whole corpus (cases, claims, capabilities) as JSON")
    export.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    export.set_defaults(func=cmd_export)
