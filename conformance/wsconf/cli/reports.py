"""`wsconf report`, `compare` and `findings`: tables, differences and the bugs behind failures, from runs."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import write_output


def trusted_results(command):
    """A results-reading command, refusing a file the harness's end line does not vouch for
    (exit 2, the file and line said)."""
    def run(args) -> int:
        from ..results.records import ResultsError
        try:
            return command(args)
        except ResultsError as exc:
            print(f"wsconf {args.command}: {exc}", file=sys.stderr)
            return 2
    return run


def cmd_report(args) -> int:
    from ..reports.table import (
        CONFORMANCE_HEADER,
        by_tool_table,
        conformance_row,
        merged_runs,
    )
    rows = [CONFORMANCE_HEADER]
    runs = []
    for label, records in merged_runs(args.results, require_end=not args.allow_incomplete):  # a label given again adds a shard's results
        runs.append((label, records))
        from ..session import expectations
        implementation = next((r.get("implementation") for r in records if r.get("implementation")), label)
        slug = expectations.slug(implementation)
        link = f"[{slug}.yaml](conformance/expectations/{slug}.yaml)"
        rows.append(conformance_row(label, records, link))
        if args.by_tool:
            print(f"\n### {label}\n\n{by_tool_table(records)}")
    table = "\n".join(rows)
    if args.html:
        from ..reports.html import render
        Path(args.html).parent.mkdir(parents=True, exist_ok=True)
        # half an emoji in an implementation's output (a lone surrogate) written as its escape
        Path(args.html).write_text(render(runs), encoding="utf-8", errors="backslashreplace")
        print(f"wrote {args.html}", file=sys.stderr)
    if args.readme:
        readme = Path(args.readme)
        text = readme.read_text(encoding="utf-8")
        start, end = "<!-- conformance:start -->", "<!-- conformance:end -->"
        if start not in text or end not in text:
            print(f"{readme} has no {start} ... {end} markers", file=sys.stderr)
            return 1
        before, rest = text.split(start, 1)
        after = rest.split(end, 1)[1]
        readme.write_text(f"{before}{start}\n{table}\n{end}{after}", encoding="utf-8")
        print(f"updated the conformance table in {readme}", file=sys.stderr)
    print(table)
    for label, _ in runs:
        if label.endswith("(UNCONFINED)"):
            print(f"{label}: the implementation was not confined in this run (its results' first line says why); "
                  "what it may have changed outside its case folders was only watched")
    return 0


def cmd_compare(args) -> int:
    from ..reports.compare import compare
    tools = set(args.tool or [])
    return compare(args.a, args.b, (lambda c: c.tool in tools) if tools else None,
                   require_end=not args.allow_incomplete)


def cmd_findings(args) -> int:
    from ..results.records import load_results
    from ..session.findings import as_json, to_text
    from ..spec.loader import load_spec
    results = load_results(args.results, require_end=not args.allow_incomplete)
    report = as_json(list(results.records.values()), results.run, load_spec(args.spec))
    write_output(args.output, to_text(report, args.format, args.top), f": {len(report['groups'])} group(s)")
    return 0


def register(sub) -> None:
    rep = sub.add_parser("report", help="Markdown conformance table from results files (LABEL=path.jsonl ...)")
    rep.add_argument("results", nargs="+")
    rep.add_argument("--by-tool", action="store_true", help="also a table per implementation by tool")
    rep.add_argument("--html", default=None, help="also write a static HTML page here")
    rep.add_argument("--readme", default=None, help="replace the table between the conformance markers in this file")
    rep.add_argument("--allow-incomplete", action="store_true",
                        help="also read a results file without its end line (an interrupted run)")
    rep.set_defaults(func=trusted_results(cmd_report))

    cmp_ = sub.add_parser("compare", help="list every case whose outputs differ between two implementations or saved results")
    cmp_.add_argument("a", help="an adapter (reference, mastra, mastra@1.65.0, cmd:...) or a results file (.jsonl)")
    cmp_.add_argument("b", help="the same, for the other side")
    cmp_.add_argument("--tool", action="append", help="only this tool family (repeatable)")
    cmp_.add_argument("--allow-incomplete", action="store_true",
                        help="also read a results file without its end line (an interrupted run)")
    cmp_.set_defaults(func=trusted_results(cmd_compare))

    fnd = sub.add_parser("findings", help="a run's failures grouped by root cause and ranked by harm, with reproductions")
    fnd.add_argument("results", help="a results file from `wsconf run --results`")
    fnd.add_argument("--format", choices=["markdown", "json"], default="markdown")
    fnd.add_argument("--top", type=int, default=None, help="only the N worst groups in full (markdown)")
    fnd.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    fnd.add_argument("--allow-incomplete", action="store_true",
                        help="also read a results file without its end line (an interrupted run)")
    fnd.set_defaults(func=trusted_results(cmd_findings))
