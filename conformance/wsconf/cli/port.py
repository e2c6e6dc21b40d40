"""`wsconf init`, `bridge` and `expectations`: a port's set-up and its list of known failures."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import configured


def cmd_init(args) -> int:
    from ..port.scaffold import copy_example, guide, init
    if args.guide:
        sys.stdout.write(guide())
        return 0
    if args.example:
        return copy_example(args.example, Path(args.directory), args.force)
    if args.durations and args.matrix is None:
        print("wsconf init: --durations goes with --matrix N (the files the shard jobs deal by)", file=sys.stderr)
        return 2
    if args.matrix is not None:
        from ..port.scaffold import DEFAULT_INSTALL
        from ..releases.workflow import write_matrix_workflow
        rc = write_matrix_workflow(Path(args.directory), args.matrix, args.install or DEFAULT_INSTALL, args.force,
                                   args.durations)
        if rc or not (args.adapter or args.implementation):
            return rc  # the port's own files too when --adapter and --implementation are given
    missing = [flag for flag, value in (("--adapter", args.adapter), ("--implementation", args.implementation)) if not value]
    if missing:
        print(f"wsconf init: {' and '.join(missing)} needed (or --guide, --example NAME, or --matrix N)", file=sys.stderr)
        return 2
    return init(Path(args.directory), args.adapter, args.implementation, args.tools, args.force, install=args.install)


def cmd_bridge(args) -> int:
    from ..adapters.base import AdapterFault
    from ..adapters.node_bridge import bridge_dir
    from ..adapters.vendored import ensure_vendored, manifest
    try:
        folder = bridge_dir()
        for package in manifest(folder):  # the provider files taken from npm tarballs (mastra-sandboxfs)
            ensure_vendored(folder, package)
    except AdapterFault as exc:
        print(f"wsconf bridge install: {exc}", file=sys.stderr)
        return 1
    print(folder)
    return 0


def cmd_expectations(args) -> int:
    """Draft an implementation's expectations file from a results file, for review: the cases the
    results ran are updated, every other entry is kept."""
    from ..reports.table import load_results
    from ..session import expectations
    from ..reports.table import load_run
    records = load_results(args.results)
    judged = (load_run(args.results) or {}).get("implementation")
    if judged and expectations.slug(judged) != expectations.slug(args.implementation):
        print(f"wsconf expectations: {args.results} holds the results of {judged!r}, not {args.implementation!r}",
              file=sys.stderr)
        return 2
    # the folder `wsconf run` reads: --expectations, else the port's config, else the bundled one
    folder = configured(args, "expectations")
    current = expectations.load(args.implementation, folder)
    draft = expectations.draft(current, records)
    fresh = expectations.fresh_differences(args.implementation, folder)  # kept as they are
    where = expectations.path_for(args.implementation, folder)
    if args.update:
        expectations.write(args.implementation, draft.failures, folder, fresh)
    else:
        sys.stdout.write(expectations.dump(args.implementation, draft.failures, fresh))
    print(f"{'wrote' if args.update else 'draft of'} {where}: {len(draft.failures)} entries ({len(draft.new)} new, "
          f"{len(draft.removed)} removed as passing, {len(draft.kept)} kept: cases {args.results} did not run)",
          file=sys.stderr)
    todo = expectations.unreviewed(draft.failures)
    if todo:
        print(f"{len(todo)} entries start with {expectations.REVIEW!r}: write the real reason of each (what the "
              "implementation does and why) before committing; `wsconf run` fails while any is left", file=sys.stderr)
    return 0


def register(sub) -> None:
    ini = sub.add_parser("init", help="start a port's wsconf setup: wsconf.toml, an expectations file, a CI workflow")
    ini.add_argument("--guide", action="store_true", help="print the first-port guide (spec/first-port.md) and stop")
    ini.add_argument("--example", default=None, metavar="NAME",
                     help="copy a worked example port into --directory: python-port or node-port")
    ini.add_argument("--adapter", default=None, help='how to run the port, e.g. "cmd:node port.mjs"')
    ini.add_argument("--implementation", default=None, help="the name its hello reports (names the expectations file)")
    ini.add_argument("--install", default=None,
                     help="what the CI workflow pip-installs wsconf from, a wheel file or a git URL "
                          "(default: the wheel ./wsconf-<version>-py3-none-any.whl, committed beside wsconf.toml)")
    ini.add_argument("--matrix", type=int, default=None, metavar="N",
                     help="write .github/workflows/wsconf-matrix.yml: the release matrix as N shard jobs and a merge "
                          "job (ranges, changelog and site from the merged matrix)")
    ini.add_argument("--durations", action="append", default=None, metavar="PATH",
                     help="with --matrix: earlier runs (a matrix folder or results files, in the repository) the "
                          "shard jobs deal the pairs by (repeatable)")
    ini.add_argument("--tools", default=None, help="comma-separated tools it implements (default: all)")
    ini.add_argument("--directory", default=".", help="the port's repository (default: here)")
    ini.add_argument("--force", action="store_true", help="overwrite existing files")
    ini.set_defaults(func=cmd_init)

    br = sub.add_parser("bridge", help="the upstream bridge (the mastra adapters): `wsconf bridge install`")
    br.add_argument("action", choices=["install"], help="npm ci the bundled bridge into the user cache, with the "
                    "files vendor.json takes from npm tarballs; prints its folder")
    br.set_defaults(func=cmd_bridge)

    exp = sub.add_parser("expectations", help="draft an implementation's expected failures from a results file (printed, "
                                              "or written with --update); only the cases the results ran change")
    exp.add_argument("implementation", help='the implementation name, e.g. "@mastra/core" or wsref')
    exp.add_argument("results", help="a results file from `wsconf run --results`")
    exp.add_argument("--expectations", default=None,
                     help="folder of expectations files (default: the config's `expectations`, else the bundled "
                          "conformance/expectations)")
    exp.add_argument("--update", action="store_true", help="rewrite <expectations folder>/<implementation>.yaml")
    exp.set_defaults(func=cmd_expectations, reads_config=True)
