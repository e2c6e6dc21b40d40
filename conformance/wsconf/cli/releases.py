"""`wsconf matrix`, `changelog` and `site`: the suite across @mastra/core releases."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import read_ids_file, spec_of, write_output


def _matrix_inputs(args):
    """The results across releases: a matrix folder, or results files (one per release)."""
    from ..adapters.release_install import stable_releases
    from ..releases.history import load_matrix
    from ..results.records import load_results
    from ..spec.versions import key
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


def _release_digests(args) -> tuple[dict, list[str], str | None]:
    """@mastra/core's results across releases (version -> digest, oldest first): a matrix folder, or
    results files of @mastra/core (one per release); with the releases not run, or what is wrong."""
    from ..adapters.release_install import stable_releases
    from ..releases.history import load_digests
    from ..results.digest import load_digest
    from ..spec.versions import RangeError, key
    if args.results:
        found = {}
        for path in args.results:
            if not Path(path).is_file():
                return {}, [], f"{path}: no such results file"
            digest = load_digest(path, cache=False)
            if digest.implementation != "@mastra/core":
                return {}, [], (f"{path}: results of {digest.implementation} {digest.version}, not of @mastra/core: "
                                "only @mastra/core's own results are a release")
            try:
                key(digest.version)
            except RangeError:
                return {}, [], f"{path}: @mastra/core {digest.version!r} is not a release version"
            found[digest.version] = digest
        releases = dict(sorted(found.items(), key=lambda item: key(item[0])))
        return releases, [], None
    releases = load_digests(args.matrix)
    wanted = stable_releases(args.first, args.last) if args.all_releases else list(releases)
    return releases, [v for v in wanted if v not in releases], None


def cmd_changelog(args) -> int:
    from ..releases.changelog import render
    releases, not_run, problem = _release_digests(args)
    if problem:
        print(f"wsconf changelog: {problem}", file=sys.stderr)
        return 2
    if len(releases) < 2:
        print(f"wsconf changelog: results of at least two @mastra/core releases are needed; {args.matrix} has "
              f"{len(releases)} (wsconf matrix run fills it, or give --results FILE FILE ...)", file=sys.stderr)
        return 2
    site = args.site_url if args.site_url.endswith("/") or not args.site_url else args.site_url + "/"
    write_output(args.output, render(releases, spec_of(args), not_run, site),
                 f" ({len(releases)} releases, {len(not_run)} not run)")
    return 0


def _version_key(version: str):
    from ..spec.versions import key
    return key(version)


def _site_results(args) -> tuple[list[str], str | None]:
    """The results files to show: those named, else those `make report` writes (results/*.jsonl)."""
    if args.results:
        missing = [p for p in args.results if not Path(p).is_file()]
        return args.results, (f"no such results file: {', '.join(missing)}" if missing else None)
    found = sorted(str(p) for p in Path("results").glob("*.jsonl"))
    if found:
        print(f"wsconf site: the results in results/: {', '.join(found)}", file=sys.stderr)
    return found, None


def cmd_site(args) -> int:
    from ..releases.changelog import changes, lines_by_release
    from ..releases.history import load_digests, without_results
    from ..releases.matrix import default_folder
    from ..reports.site import write_site
    from ..reports.site.build import NotASite
    from ..results.digest import load_digest
    from ..results.records import ResultsError
    files, problem = _site_results(args)
    if problem:
        print(f"wsconf site: {problem}", file=sys.stderr)
        return 2
    matrix = None if args.no_matrix else Path(args.matrix) if args.matrix else default_folder()
    if args.matrix and not matrix.is_dir():
        print(f"wsconf site: {matrix}: no such matrix folder", file=sys.stderr)
        return 2
    releases = load_digests(matrix) if matrix and matrix.is_dir() else {}
    if not files and not releases:
        print("wsconf site: no results to show. Run an implementation first and name its results:\n"
              "  wsconf run --adapter reference --results results/reference.jsonl\n"
              "  wsconf site results/reference.jsonl\n"
              "(several files show the implementations side by side; `make report` runs five and builds the site; "
              "a release matrix, `make matrix`, adds each case's history across @mastra/core releases)", file=sys.stderr)
        return 2
    if releases:
        print(f"wsconf site: the release matrix {matrix} ({len(releases)} release(s))", file=sys.stderr)
    spec = spec_of(args)
    given = []
    for path in files:
        try:
            given.append((load_digest(path, cache=False), path))  # a file of its own: no cache beside it
        except (OSError, ValueError, ResultsError) as exc:  # truncated, foreign or changed: named, the site goes on
            print(f"wsconf site: {path}: not a results file ({exc}); left out", file=sys.stderr)
    found = lines_by_release(changes(releases, spec)) if len(releases) > 1 else {}
    try:
        pages = write_site(args.output, spec, given, releases, found, without_results(matrix) if releases else [])
    except NotASite as exc:
        print(f"wsconf site: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {len(pages)} files to {args.output} (open {Path(args.output) / 'index.html'})", file=sys.stderr)
    return 0


def cmd_matrix(args) -> int:
    from ..adapters.release_install import stable_releases
    from ..releases.matrix import run_matrix
    from ..releases.ranges import case_ranges, write_versions
    spec = spec_of(args)
    only = None
    if args.ids:
        only = read_ids_file(args.ids, spec)
        if only is None:
            return 2
    if args.action != "run" and (args.shard or args.durations):
        print(f"wsconf matrix {args.action}: --shard and --durations are options of `matrix run`", file=sys.stderr)
        return 2
    if args.action == "merge":
        return _merge(args, spec)
    if args.shards:
        print(f"wsconf matrix {args.action}: shard folders are merged (`wsconf matrix merge SHARD...`), "
              f"not given to {args.action}: {' '.join(args.shards)}", file=sys.stderr)
        return 2
    if args.action == "run":
        versions = args.releases.split(",") if args.releases else stable_releases(args.first, args.last)
        options = dict(workers=args.workers, installers=args.installers, parallel=args.parallel,
                       log=lambda m: print(m, file=sys.stderr, flush=True), spec=spec,
                       rerun_bridge=args.rerun_bridge, full=args.full, only=only)
        if args.shard:
            return _run_shard(args, versions, options)
        if args.durations:
            print("wsconf matrix run: --durations deals a sharded run (--shard I/N)", file=sys.stderr)
            return 2
        run_matrix(Path(args.matrix), versions, **options)
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
        from ..releases.ranges import check
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


def _run_shard(args, versions, options) -> int:
    from ..releases.shards import ShardError, run_shard
    spec, only, log = options.pop("spec"), options.pop("only"), options.pop("log")
    try:
        run_shard(Path(args.matrix), args.shard, versions, spec, args.durations, only, log=log, **options)
    except ShardError as exc:
        print(f"wsconf matrix run: {exc}", file=sys.stderr)
        return 2
    return 0


def _merge(args, spec) -> int:
    from ..releases.shard_merge import merge_shards
    from ..releases.shards import ShardError
    try:
        merged = merge_shards([Path(s) for s in args.shards], Path(args.matrix), spec)
    except ShardError as exc:
        print(f"wsconf matrix merge: refused:\n{exc}", file=sys.stderr)
        return 2
    print(f"merged {len(args.shards)} shard(s) into {args.matrix}: {len(merged)} release(s), "
          f"{sum(merged.values())} results", file=sys.stderr)
    return 0


def cmd_states(args) -> int:
    from ..releases.states import pin
    pinned = pin(spec_of(args), args.results, args.write, log=lambda m: print(m, file=sys.stderr),
                 witness_files=args.witness or [])
    print(f"{'pinned' if args.write else 'would pin'} the root's states of {len(pinned)} case(s) "
          f"from {len(args.results)} run(s)", file=sys.stderr)
    return 0


def _matrix_options(parser):
    from ..adapters.release_install import FIRST, LAST
    from ..releases.matrix import default_folder
    parser.add_argument("--matrix", default=str(default_folder()), help="the matrix folder (default %(default)s)")
    parser.add_argument("--results", nargs="*", default=None,
                        help="results files, one per release, instead of a matrix folder")
    parser.add_argument("--first", default=FIRST, help="the oldest release (default %(default)s)")
    parser.add_argument("--last", default=LAST, help="the newest release (default %(default)s)")
    parser.add_argument("--all-releases", action="store_true",
                        help="name every stable release from --first to --last the folder has no results for")


def register(sub) -> None:
    chg = sub.add_parser("changelog", help="BEHAVIOUR-CHANGES.md from results across @mastra/core releases")
    _matrix_options(chg)
    chg.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    chg.add_argument("--site-url", default="report/site/",
                     help="where the report site is, for the links to its cases and releases (default %(default)s, "
                          "where make report builds it)")
    chg.set_defaults(func=cmd_changelog)

    site = sub.add_parser("site", help="the report site: per tool, case, claim, implementation and release, side by side")
    site.add_argument("results", nargs="*",
                      help="results files (wsconf run --results), one per implementation, each labelled by the "
                           "implementation and version of its run line (default: results/*.jsonl)")
    site.add_argument("--matrix", default=None,
                      help="a release matrix folder: each case's history across @mastra/core releases and the "
                           "release pages (default: the default matrix folder when it holds results)")
    site.add_argument("--no-matrix", action="store_true", help="no release history, even if a matrix folder is there")
    site.add_argument("-o", "--output", default="report/site", help="folder to write (default %(default)s)")
    site.set_defaults(func=cmd_site)

    mat = sub.add_parser("matrix", help="run the suite on every stable @mastra/core release, or take the cases' ranges from it")
    mat.add_argument("action", choices=["run", "merge", "ranges", "check"],
                     help="run: install and run each release (resumable, per case); merge: shard folders (run "
                          "--shard) into the matrix folder --matrix, as one run writes it; ranges: each case's "
                          "`versions` from the results; check: per release, the outcomes a plain run would have with "
                          "the ranges and expectations applied (the failed column counts failed, error, xpass and not "
                          "run; exit 1 if any)")
    mat.add_argument("shards", nargs="*", metavar="SHARD", help="merge: the shards' folders, every shard of one deal")
    _matrix_options(mat)
    mat.add_argument("--shard", default=None, metavar="I/N",
                     help="run: only shard I of N (the releases and cases dealt by expected duration; --matrix is "
                          "the shard's own folder, merged by `wsconf matrix merge`)")
    mat.add_argument("--durations", action="append", default=None, metavar="PATH",
                     help="run --shard: earlier runs whose case durations deal the pairs (a matrix folder or a "
                          "release's results file; repeatable; every shard must be given the same). Default: "
                          "an estimate of the same time per case")
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

    sts = sub.add_parser("states", help="pin the root's state after each step from runs of the upstream (spec/states/)")
    sts.add_argument("action", choices=["pin"])
    sts.add_argument("results", nargs="+", help="results files of the upstream (wsconf run --adapter mastra --results ...)")
    sts.add_argument("--write", action="store_true", help="write spec/states/ (without it: only say what would change)")
    sts.add_argument("--witness", action="append", metavar="RESULTS",
                     help="a run of another implementation: where it lacks an entry the runs have, or has one they "
                          "lack, the entry is pinned as optional (timing); each is listed (repeatable)")
    sts.set_defaults(func=cmd_states)
