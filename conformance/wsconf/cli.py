"""The `wsconf` command: run the suite, and read the spec without reading YAML."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

from .render import visible
from .resources import pages_dir
from .spec import DEFAULT_SPEC_DIR, load_spec, quote_problems

PAGES_DIR = pages_dir()


def _spec(args):
    spec = load_spec(args.spec)
    return spec


def _read_ids(path, spec):
    """The ids a file lists (plugin.read_ids), or None after printing why they cannot be read."""
    import pytest
    from .plugin import read_ids
    try:
        return set(read_ids(path, spec))
    except pytest.UsageError as exc:
        print(f"wsconf: {exc}", file=sys.stderr)
        return None


def _configured(args, key: str, default=None):
    """A run option: the command line, else the port's config file, else the default."""
    value = getattr(args, key, None)
    if value is not None:
        return value
    return args.config.get(key, default) if args.config else default


def cmd_run(args) -> int:
    import pytest
    spec_root = Path(args.spec or DEFAULT_SPEC_DIR)
    if args.config:
        print(f"wsconf: config {args.config.path}", file=sys.stderr)
    adapter = _configured(args, "adapter", "reference")
    # The cases use no hypothesis: its pytest plugin would import the whole library at the end.
    argv = [str(spec_root / "cases"), "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "--wsconf-adapter", adapter,
            "--wsconf-timeout", str(_configured(args, "timeout", 30.0)), "-q", "-rfE",
            "-W", "ignore::pytest.PytestAssertRewriteWarning"]  # wsconf is imported before pytest starts
    args.workers = _configured(args, "workers")
    args.results = _configured(args, "results")
    args.junitxml = _configured(args, "junitxml")
    expectations_dir = _configured(args, "expectations")
    if expectations_dir:
        argv += ["--wsconf-expectations", str(expectations_dir)]
    tools = args.tools.split(",") if args.tools else _configured(args, "tools")
    if tools:
        argv += ["--wsconf-tools", ",".join(tools)]
    if args.workers:
        argv += ["-n", str(args.workers)]
    if args.k:
        argv += ["-k", args.k]
    for tool in args.tool or []:
        argv += ["--wsconf-tool", tool]
    for tag in args.tag or []:
        argv += ["--wsconf-tag", tag]
    for claim in args.claim or []:
        argv += ["--wsconf-claim", claim]
    if args.ids:
        argv += ["--wsconf-ids", args.ids]
    if args.results:
        argv += ["--wsconf-results", args.results]
    if args.junitxml:
        argv += ["--junitxml", args.junitxml]
    if args.x:
        argv.append("-x")
    if args.no_expectations:
        argv.append("--wsconf-no-expectations")
    if args.hermetic:
        argv.append("--wsconf-hermetic")
    if args.max_line:
        argv += ["--wsconf-max-line", args.max_line]
    if args.all_versions:
        argv.append("--wsconf-all-versions")
    argv += args.pytest_args or []
    return int(pytest.main(argv))


def cmd_init(args) -> int:
    from .scaffold import init
    return init(Path(args.directory), args.adapter, args.implementation, args.tools, args.force)


def cmd_bridge(args) -> int:
    from .adapters.base import AdapterFault
    from .node_bridge import bridge_dir
    try:
        folder = bridge_dir()
    except AdapterFault as exc:
        print(f"wsconf bridge install: {exc}", file=sys.stderr)
        return 1
    print(folder)
    return 0


def cmd_list(args) -> int:
    spec = _spec(args)
    for case in spec.cases:
        if args.tool and case.tool != args.tool:
            continue
        if args.tag and args.tag not in case.tags:
            continue
        print(f"{case.id:<60} {case.title}")
    return 0


def cmd_show(args) -> int:
    spec = _spec(args)
    case = spec.cases_by_id.get(args.case_id)
    if case is None:
        close = [c.id for c in spec.cases if args.case_id in c.id][:10]
        print(f"no case {args.case_id!r}" + (f"; did you mean: {', '.join(close)}" if close else ""), file=sys.stderr)
        return 2
    out = [f"{case.id}  ({case.file}:{case.line})", f"  {case.title}", ""]
    out.append("Checks:")
    for cid in case.claims:
        claim = spec.claims[cid]
        flag = f" [{claim.status}: {claim.observed or claim.reason}]" if claim.status else ""
        out.append(f"  {cid} ({claim.page}, {claim.section}): \"{claim.quote}\"{flag}")
    if case.needs:
        out.append(f"Needs: {', '.join(case.needs)}")
    if case.setup:
        out += ["", "Setup:"] + _setup_lines(case.setup, "  ")
    if case.workspace:
        out += ["", "Workspace:"] + ["  " + line for line in yaml.safe_dump(case.workspace, allow_unicode=True, sort_keys=False).splitlines()]
    if case.open_error:
        out += ["", "Opening the workspace throws with this message:"]
        out += _expect_lines(case.open_error)
    for step in case.steps:
        out.append("")
        if "host" in step:
            out.append(f"Step {step['id']}: the harness changes the tree: {json.dumps(step['host'])}")
            continue
        if "concurrent" in step:
            out.append(f"Step {step['id']}: these calls, started together in order:")
            for call in step["concurrent"]:
                out.append(f"  {call['tool']}({json.dumps(call.get('args', {}), ensure_ascii=False)})")
                out += ["  " + line for line in _expect_lines(call.get("expect") or {})]
            continue
        target = step.get("tool") or (f"fs.{step['fs']}" if "fs" in step else "list tools")
        out.append(f"Step {step['id']}: {target}({json.dumps(step.get('args', {}), ensure_ascii=False)})")
        out += _expect_lines(step.get("expect") or {})
        if "after" in step:
            out.append(f"  afterwards: {json.dumps(step['after'], ensure_ascii=False)}")
    print("\n".join(out))
    return 0


def _literal(text: str, indent: str) -> list[str]:
    """A text as it is, line by line, with the diffs' glyphs for tabs, CRs, trailing blanks, no final newline."""
    return [indent + line for line in visible(text).split("\n")]


def _content_lines(content, indent: str) -> list[str]:
    if isinstance(content, str):
        return _literal(content, indent)
    if isinstance(content, dict) and "text" in content:
        extra = {k: v for k, v in content.items() if k != "text"}
        return ([indent + f"({json.dumps(extra, ensure_ascii=False)})"] if extra else []) + _literal(content["text"], indent)
    if isinstance(content, dict) and "repeat" in content:
        return (_literal(content["prefix"], indent) if content.get("prefix") else []) + \
            [indent + f"{content['times']} times:"] + _literal(content["repeat"], indent + "  ") + \
            (_literal(content["suffix"], indent) if content.get("suffix") else [])
    return [indent + json.dumps(content, ensure_ascii=False)]  # {hex: ...} or {base64: ...}


def _setup_lines(setup: dict, indent: str) -> list[str]:
    out = []
    for name, content in (setup.get("files") or {}).items():
        out.append(f"{indent}file {name}:")
        out += _content_lines(content, indent + "  | ")
    for name in setup.get("dirs") or []:
        out.append(f"{indent}folder {name}/")
    for name, target in (setup.get("symlinks") or {}).items():
        out.append(f"{indent}link {name} -> {target}")
    for name, mode in (setup.get("modes") or {}).items():
        out.append(f"{indent}mode {mode} on {name}")
    if setup.get("outside"):
        out.append(f"{indent}outside the root ({{{{outside}}}}):")
        out += _setup_lines(setup["outside"], indent + "  ")
    known = {"files", "dirs", "symlinks", "modes", "outside"}
    for key in [k for k in setup if k not in known]:
        out.append(f"{indent}{key}: {json.dumps(setup[key], ensure_ascii=False)}")
    return out


def _expect_lines(expect: dict) -> list[str]:
    """Every expectation of a step (or of opening the workspace), in plain words."""
    out = []
    labels = {"text": "returns this text", "error": "throws with this message", "model_text": "and the model is shown"}
    for key in ("text", "error"):
        if key in expect:
            out.append(f"  {labels[key]}:")
            out += _literal(expect[key], "    | ")
    if "error_code" in expect:
        out.append(f"  with code {expect['error_code']}")
    if "error_name" in expect:
        out.append(f"  named {expect['error_name']}")
    if "media" in expect:
        out.append(f"  returns media {json.dumps(expect['media'], ensure_ascii=False)}")
    if "value" in expect:
        out.append(f"  returns the value {json.dumps(expect['value'], ensure_ascii=False)}")
    if "model_text" in expect:
        out.append(f"  {labels['model_text']}:")
        out += _literal(expect["model_text"], "    | ")
    if "model" in expect:
        out.append(f"  and the model output is {json.dumps(expect['model'], ensure_ascii=False)}")
    shown = {"text", "error", "error_code", "error_name", "media", "value", "model_text", "model"}
    for key in [k for k in expect if k not in shown]:
        out.append(f"  {key}: {json.dumps(expect[key], ensure_ascii=False)}")
    return out


def cmd_upstream_tests(spec, show_gaps: bool) -> int:
    from .upstream_tests import load_upstream_tests, summary
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
    spec = _spec(args)
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
    from .upstream_tests import load_upstream_tests
    tests, _ = load_upstream_tests(spec.root, {c.id for c in spec.cases})
    names = {(t.file, t.name) for t in tests}
    return [f"{c.id}: no upstream test {c.quote!r} in {c.page}" for c in spec.claims.values()
            if c.page.endswith(".test.ts") and (c.page, c.quote) not in names]


def cmd_lint(args) -> int:
    spec = _spec(args)
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
    spec = _spec(args)
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


def cmd_expectations(args) -> int:
    """Rewrite an implementation's expectations file from a results file, for review."""
    from . import expectations
    from .report import load_results
    records = load_results(args.results)
    # the folder `wsconf run` reads: --expectations, else the port's config, else the bundled one
    folder = _configured(args, "expectations")
    current = expectations.load(args.implementation, folder)
    failures = {}
    for r in records:
        if r["outcome"] in ("failed", "error", "xfail"):
            first_line = (r.get("detail") or r["message"]).strip().splitlines()[0] if (r.get("detail") or r["message"]) else ""
            failures[r["id"]] = current.get(r["id"]) or f"REVIEW: {first_line[:200]}"
    if not args.update:
        for case_id, reason in sorted(failures.items()):
            print(f"{case_id}: {reason}")
        return 0
    path = expectations.write(args.implementation, failures, folder)
    new = sorted(set(failures) - set(current))
    gone = sorted(set(current) - set(failures))
    print(f"wrote {path}: {len(failures)} entries ({len(new)} new, {len(gone)} removed). "
          "Replace every 'REVIEW:' with the real reason before committing.", file=sys.stderr)
    return 0


def cmd_report(args) -> int:
    from .report import CONFORMANCE_HEADER, by_tool_table, conformance_row, merged_runs
    rows = [CONFORMANCE_HEADER]
    runs = []
    for label, records in merged_runs(args.results):  # a label given again adds a shard's results
        runs.append((label, records))
        from . import expectations
        implementation = next((r.get("implementation") for r in records if r.get("implementation")), label)
        slug = expectations.slug(implementation)
        link = f"[{slug}.yaml](conformance/expectations/{slug}.yaml)"
        rows.append(conformance_row(label, records, link))
        if args.by_tool:
            print(f"\n### {label}\n\n{by_tool_table(records)}")
    table = "\n".join(rows)
    if args.html:
        from .html_report import render
        Path(args.html).parent.mkdir(parents=True, exist_ok=True)
        Path(args.html).write_text(render(runs), encoding="utf-8")
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
    return 0


def cmd_properties(args) -> int:
    import os

    import pytest
    os.environ["WSCONF_PROFILE"] = args.profile
    if args.fuzz_paths:
        os.environ["WSCONF_FUZZ_PATHS"] = str(args.fuzz_paths)
    argv = ["--pyargs", "wsconf.properties", "-p", "no:cacheprovider", "-q", "--wsconf-adapter", args.adapter,
            "--wsconf-timeout", str(args.timeout)]
    if args.compare:
        argv += ["--wsconf-compare", args.compare]
    if args.workers:
        argv += ["-n", str(args.workers)]
    return int(pytest.main(argv + (args.pytest_args or [])))


def cmd_compare(args) -> int:
    from .compare import compare
    tools = set(args.tool or [])
    return compare(args.a, args.b, (lambda c: c.tool in tools) if tools else None)


def _matrix_inputs(args):
    """The results across releases: a matrix folder, or results files (one per release)."""
    from .history import load_matrix, load_results
    from .releases import stable_releases
    from .versions import key
    if args.results:
        matrix = {}
        for path in args.results:
            results = load_results(path)
            matrix[results.core_version or results.version] = results
        matrix = dict(sorted(matrix.items(), key=lambda item: key(item[0])))
        wanted = list(matrix)
    else:
        matrix = load_matrix(args.matrix)
        wanted = stable_releases(args.first, args.last) if args.all_releases else list(matrix)
    return matrix, [v for v in wanted if v not in matrix]


def cmd_changelog(args) -> int:
    from .changelog import render
    matrix, not_run = _matrix_inputs(args)
    if len(matrix) < 2:
        print("wsconf changelog: results of at least two releases are needed", file=sys.stderr)
        return 2
    text = render(matrix, _spec(args), not_run)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output} ({len(matrix)} releases, {len(not_run)} not run)", file=sys.stderr)
    return 0


def _version_key(version: str):
    from .versions import key
    return key(version)


def cmd_site(args) -> int:
    from .html_report import write_site
    matrix, not_run = _matrix_inputs(args)
    if not matrix:
        print("wsconf site: no results", file=sys.stderr)
        return 2
    changes = Path(args.changes).read_text(encoding="utf-8") if args.changes else None
    pages = write_site(args.output, matrix, _spec(args), not_run, changes)
    print(f"wrote {len(pages)} pages to {args.output} (open {Path(args.output) / 'index.html'})", file=sys.stderr)
    return 0


def cmd_matrix(args) -> int:
    from .matrix import run_matrix
    from .ranges import case_ranges, write_versions
    from .releases import stable_releases
    spec = _spec(args)
    only = None
    if args.ids:
        only = _read_ids(args.ids, spec)
        if only is None:
            return 2
    if args.action == "run":
        versions = args.releases.split(",") if args.releases else stable_releases(args.first, args.last)
        run_matrix(Path(args.matrix), versions, args.workers, args.installers, parallel=args.parallel,
                   log=lambda m: print(m, file=sys.stderr, flush=True), spec=spec,
                   rerun_bridge=args.rerun_bridge, full=args.full, only=only)
        return 0
    matrix, not_run = _matrix_inputs(args)
    ranges = case_ranges(spec, matrix, sorted(set(matrix) | set(not_run), key=_version_key))
    if args.action == "ranges":
        for case in spec.cases:
            if ranges.get(case.id) != case.versions:
                print(f"{case.id}: {case.versions or '(all)'} -> {ranges.get(case.id) or '(all)'}")
        if args.write:
            changed = write_versions(spec, ranges)
            print(f"rewrote `versions` in {len(changed)} file(s)", file=sys.stderr)
        if not_run:
            print(f"not run: {', '.join(not_run)}", file=sys.stderr)
        return 0
    if args.action == "check":
        from .ranges import check
        counts, unexpected = check(spec, matrix, only=only)
        print("| release | passed | not applicable | xfail | unsupported | failed |")
        print("|---|---:|---:|---:|---:|---:|")
        for version, row in counts.items():
            bad = row["failed"] + row["xpass"] + row["error"] + row["not run"]
            print(f"| {version} | {row['passed']} | {row['not_applicable']} | {row['xfail']} | {row['unsupported']} | {bad} |")
        for version, lines in unexpected.items():
            for line in lines:
                print(f"{version}: {line}", file=sys.stderr)
        if not_run:
            print(f"not run: {', '.join(not_run)}", file=sys.stderr)
        return 1 if unexpected or not_run else 0
    return 2


def cmd_snapshots(args) -> int:
    import pytest
    if args.update and args.adapter not in ("reference", "wsref"):
        print("snapshots are generated from the reference only; drop --update or use --adapter reference",
              file=sys.stderr)
        return 2
    argv = ["--pyargs", "wsconf.snapshots", "-p", "no:cacheprovider", "-q", "--wsconf-adapter", args.adapter]
    return int(pytest.main(argv + (["--snapshot-update"] if args.update else [])))


def cmd_smoke(args) -> int:
    from .smoke import smoke
    return smoke(args.adapter, args.timeout)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="wsconf", description="Conformance suite for the Mastra workspace tools")
    p.add_argument("--spec", default=None, help="spec directory (default: the bundled spec, or the checkout's spec/)")
    p.add_argument("--config", default=None,
                   help="a wsconf.toml or pyproject.toml with [tool.wsconf] (default: found from the current folder up)")
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the suite against an implementation and print a summary by tool")
    run.add_argument("--adapter", default=None,
                     help="reference (default), mastra, mastra-s3, mastra-gcs, reference-protocol, cmd:<command>, module:Class")
    run.add_argument("-n", "--workers", default=None, help="parallel workers (pytest-xdist), e.g. 2 or auto")
    run.add_argument("--expectations", default=None,
                     help="folder of expectations files <implementation>[@<version>].yaml (default: the bundled "
                          "conformance/expectations); the versioned file wins over the plain one")
    run.add_argument("--tools", default=None,
                     help="comma-separated tools the implementation has (read_file,write_file); cases calling "
                          "others are unsupported (default: what it declares in hello, else all)")
    run.add_argument("-k", default=None, help="pytest -k expression over case ids and tags")
    run.add_argument("--tool", action="append", help="only this tool family (repeatable)")
    run.add_argument("--tag", action="append", help="only cases with this tag (repeatable)")
    run.add_argument("--claim", action="append", help="only cases checking this claim (repeatable)")
    run.add_argument("--ids", default=None, metavar="FILE",
                     help="only the cases whose ids FILE lists, one a line (`wsconf matrix run` reruns the stale ones so)")
    run.add_argument("--results", default=None, help="write one JSON object per case to this file")
    run.add_argument("--junitxml", default=None, help="write JUnit XML for CI")
    run.add_argument("--timeout", type=float, default=None, help="seconds per adapter call (default 30)")
    run.add_argument("--no-expectations", action="store_true", help="ignore the expectations file")
    run.add_argument("--all-versions", action="store_true",
                     help="run every case whatever its `versions` say (how `make matrix` measures the ranges)")
    run.add_argument("-x", action="store_true", help="stop at the first failure")
    run.add_argument("--hermetic", action="store_true",
                     help="run the implementation under bwrap: everything outside the case folders read-only")
    run.add_argument("--max-line", default=None, help="largest response line the implementation may send (default 64MB)")
    run.add_argument("pytest_args", nargs="*", help="further pytest arguments (after --)")
    run.set_defaults(func=cmd_run)

    ini = sub.add_parser("init", help="start a port's wsconf setup: wsconf.toml, an expectations file, a CI workflow")
    ini.add_argument("--adapter", required=True, help='how to run the port, e.g. "cmd:node port.mjs"')
    ini.add_argument("--implementation", required=True, help="the name its hello reports (names the expectations file)")
    ini.add_argument("--tools", default=None, help="comma-separated tools it implements (default: all)")
    ini.add_argument("--directory", default=".", help="the port's repository (default: here)")
    ini.add_argument("--force", action="store_true", help="overwrite existing files")
    ini.set_defaults(func=cmd_init)

    br = sub.add_parser("bridge", help="the upstream bridge (the mastra adapters): `wsconf bridge install`")
    br.add_argument("action", choices=["install"], help="npm ci the bundled bridge into the user cache; prints its folder")
    br.set_defaults(func=cmd_bridge)

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
    props = sub.add_parser("properties", help="the property tests (hypothesis) against an implementation")
    props.add_argument("--adapter", default="reference")
    props.add_argument("--compare", default=None, help="differential mode: a second implementation")
    props.add_argument("--profile", default="quick", choices=["quick", "thorough"],
                       help="quick (25 examples per property, for the test command) or thorough (2000)")
    props.add_argument("--fuzz-paths", type=int, default=None,
                       help="paths the containment fuzzer tries (default 100 quick, 2000 thorough; CI: 10000)")
    props.add_argument("-n", "--workers", default=None)
    props.add_argument("--timeout", type=float, default=30.0)
    props.add_argument("pytest_args", nargs="*")
    props.set_defaults(func=cmd_properties)

    snaps = sub.add_parser("snapshots", help="check an implementation against the committed snapshots (fixtures/repo)")
    snaps.add_argument("--adapter", default="reference")
    snaps.add_argument("--update", action="store_true",
                       help="regenerate from the reference (only when the spec changed; review the diff)")
    snaps.set_defaults(func=cmd_snapshots)

    cmp_ = sub.add_parser("compare", help="list every case whose outputs differ between two implementations or saved results")
    cmp_.add_argument("a", help="an adapter (reference, mastra, mastra@1.65.0, cmd:...) or a results file (.jsonl)")
    cmp_.add_argument("b", help="the same, for the other side")
    cmp_.add_argument("--tool", action="append", help="only this tool family (repeatable)")
    cmp_.set_defaults(func=cmd_compare)

    def matrix_inputs(parser):
        from .matrix import default_folder
        from .releases import FIRST, LAST
        parser.add_argument("--matrix", default=str(default_folder()), help="the matrix folder (default %(default)s)")
        parser.add_argument("--results", nargs="*", default=None,
                            help="results files, one per release, instead of a matrix folder")
        parser.add_argument("--first", default=FIRST, help="the oldest release (default %(default)s)")
        parser.add_argument("--last", default=LAST, help="the newest release (default %(default)s)")
        parser.add_argument("--all-releases", action="store_true",
                            help="name every stable release from --first to --last the folder has no results for")

    chg = sub.add_parser("changelog", help="BEHAVIOUR-CHANGES.md from results across @mastra/core releases")
    matrix_inputs(chg)
    chg.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    chg.set_defaults(func=cmd_changelog)

    site = sub.add_parser("site", help="the report site: version matrix, case histories, claims and errata, diffs")
    matrix_inputs(site)
    site.add_argument("-o", "--output", default="report/site", help="folder to write (default %(default)s)")
    site.add_argument("--changes", default=None, help="BEHAVIOUR-CHANGES.md to show on the site")
    site.set_defaults(func=cmd_site)

    mat = sub.add_parser("matrix", help="run the suite on every stable @mastra/core release, or take the cases' ranges from it")
    mat.add_argument("action", choices=["run", "ranges", "check"],
                     help="run: install and run each release (resumable, per case); ranges: each case's `versions` from "
                          "the results; check: per release, the outcomes a plain run would have with the ranges and "
                          "expectations applied (the failed column counts failed, error, xpass and not run; exit 1 if any)")
    matrix_inputs(mat)
    mat.add_argument("--releases", default=None, help="run: comma-separated releases (default: every stable one)")
    mat.add_argument("-n", "--workers", default="2", help="run: pytest-xdist workers per release")
    mat.add_argument("--installers", type=int, default=2, help="run: installs at once")
    mat.add_argument("--parallel", type=int, default=1, help="run: releases run at once")
    mat.add_argument("--rerun-bridge", action="store_true",
                     help="run: also rerun the cases whose results came through another bridge (after a change to an existing op)")
    mat.add_argument("--full", action="store_true",
                     help="run: rerun every case on every release (after a change to how wsconf judges outputs)")
    mat.add_argument("--write", action="store_true", help="ranges: write them into the case files")
    mat.add_argument("--ids", default=None, metavar="FILE",
                     help="run, check: only the cases whose ids FILE lists, one a line (ranges keeps the `versions` "
                          "of cases the matrix has no result for)")
    mat.set_defaults(func=cmd_matrix)

    sm = sub.add_parser("smoke", help="check a new adapter: handshake, tool list and a few cases, explained")
    sm.add_argument("adapter")
    sm.add_argument("--timeout", type=float, default=30.0)
    sm.set_defaults(func=cmd_smoke)

    export = sub.add_parser("export", help="write the whole corpus (cases, claims, capabilities) as JSON")
    export.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    export.set_defaults(func=cmd_export)

    exp = sub.add_parser("expectations", help="show or rewrite an implementation's expected failures from a results file")
    exp.add_argument("implementation", help='the implementation name, e.g. "@mastra/core" or wsref')
    exp.add_argument("results", help="a results file from `wsconf run --results`")
    exp.add_argument("--expectations", default=None,
                     help="folder of expectations files (default: the config's `expectations`, else the bundled "
                          "conformance/expectations)")
    exp.add_argument("--update", action="store_true", help="rewrite <expectations folder>/<implementation>.yaml")
    exp.set_defaults(func=cmd_expectations)

    rep = sub.add_parser("report", help="Markdown conformance table from results files (LABEL=path.jsonl ...)")
    rep.add_argument("results", nargs="+")
    rep.add_argument("--by-tool", action="store_true", help="also a table per implementation by tool")
    rep.add_argument("--html", default=None, help="also write a static HTML page here")
    rep.add_argument("--readme", default=None, help="replace the table between the conformance markers in this file")
    rep.set_defaults(func=cmd_report)
    return p


def main(argv=None) -> int:
    from .config import ConfigError, find_config, load_config
    args = build_parser().parse_args(argv)
    path = Path(args.config) if args.config else (find_config() if args.func in (cmd_run, cmd_expectations) else None)
    try:
        args.config = load_config(path) if path else None
    except (ConfigError, OSError) as exc:
        print(f"wsconf: bad config: {exc}", file=sys.stderr)
        return 2
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
