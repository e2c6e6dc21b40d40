"""`wsconf run`, `properties`, `snapshots` and `smoke`: the suite and its checks against an implementation."""
from __future__ import annotations

import sys
from pathlib import Path

from ..session.guards import positive_seconds
from ..spec.loader import DEFAULT_SPEC_DIR
from .common import configured


# wsconf run's options as the pytest plugin takes them: a flag (True), a value, or one per item of a list
PASSED_ON = [("workers", "-n"), ("k", "-k"), ("tool", "--wsconf-tool"), ("tag", "--wsconf-tag"),
             ("claim", "--wsconf-claim"), ("ids", "--wsconf-ids"), ("results", "--wsconf-results"),
             ("junitxml", "--junitxml"), ("x", "-x"), ("no_expectations", "--wsconf-no-expectations"),
             ("hermetic", "--wsconf-hermetic"), ("unconfined", "--wsconf-unconfined"),
             ("max_line", "--wsconf-max-line"), ("keep_outputs", "--wsconf-keep-outputs"),
             ("all_versions", "--wsconf-all-versions"), ("fresh", "--wsconf-fresh"),
             ("fresh_seed", "--wsconf-fresh-seed"), ("all_tools", "--wsconf-all-tools"),
             ("wait_workers", "--wsconf-wait-workers")]


def cmd_run(args) -> int:
    import pytest
    spec_root = Path(args.spec or DEFAULT_SPEC_DIR)
    if args.config:
        print(f"wsconf: config {args.config.path}", file=sys.stderr)
    adapter = configured(args, "adapter", "reference")
    # The cases use no hypothesis: its pytest plugin would import the whole library at the end.
    argv = [str(spec_root / "cases"), "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "--wsconf-adapter", adapter,
            "--wsconf-timeout", repr(configured(args, "timeout", 30.0)), "-q", "-rfE",
            "-W", "ignore::pytest.PytestAssertRewriteWarning"]  # wsconf is imported before pytest starts
    args.workers = configured(args, "workers")
    args.results = configured(args, "results")
    args.junitxml = configured(args, "junitxml")
    expectations_dir = configured(args, "expectations")
    if expectations_dir:
        argv += ["--wsconf-expectations", str(expectations_dir)]
    tools = [t.strip() for t in args.tools.split(",") if t.strip()] if args.tools else configured(args, "tools")
    if tools:
        problem = _unknown_tools(args, tools, spec_root)
        if problem:
            print(problem, file=sys.stderr)
            return 2
        argv += ["--wsconf-tools", ",".join(tools)]
    for attribute, option in PASSED_ON:
        value = getattr(args, attribute)
        if value is True:
            argv.append(option)
        elif isinstance(value, list):
            for item in value:
                argv += [option, item]
        elif value is not None and value is not False and value != "":  # 0 is a value (--fresh 0)
            argv += [option, str(value)]
    argv += args.pytest_args or []
    code = int(pytest.main(argv))
    # A usage error (pytest's 4) is the CLI's usual 2, as for a bad wsconf.toml.
    return 2 if code == pytest.ExitCode.USAGE_ERROR else code


def _unknown_tools(args, tools: list[str], spec_root: Path) -> str | None:
    """A tool no case calls, refused before the run: in the config by file, line and key."""
    from ..session.config import ConfigError, check_tools
    from ..spec.loader import load_spec
    from ..spec.tool_names import spec_tools, unknown_tools
    spec = load_spec(spec_root)
    known = ", ".join(spec_tools(spec))
    unknown = unknown_tools(tools, spec)
    if not unknown:
        return None
    if args.tools:
        return f"wsconf run: --tools: unknown tool(s) {', '.join(map(repr, unknown))}; the spec's tools are {known}"
    try:
        check_tools(args.config, unknown, known)
    except ConfigError as exc:
        return f"wsconf: bad config: {exc}"
    return None


def cmd_properties(args) -> int:
    import os

    import pytest
    os.environ["WSCONF_PROFILE"] = args.profile
    if args.fuzz_paths:
        os.environ["WSCONF_FUZZ_PATHS"] = str(args.fuzz_paths)
    if args.fuzz_calls:
        os.environ["WSCONF_FUZZ_CALLS"] = str(args.fuzz_calls)
    argv = ["--pyargs", "wsconf.properties", "-p", "no:cacheprovider", "-q", "--wsconf-adapter", args.adapter,
            "--wsconf-timeout", str(args.timeout)]
    if args.compare:
        argv += ["--wsconf-compare", args.compare]
    if args.workers:
        argv += ["-n", str(args.workers)]
    return int(pytest.main(argv + (args.pytest_args or [])))


def cmd_snapshots(args) -> int:
    import pytest
    if args.update and args.adapter not in ("reference", "wsref"):
        print("snapshots are generated from the reference only; drop --update or use --adapter reference",
              file=sys.stderr)
        return 2
    argv = ["--pyargs", "wsconf.snapshots", "-p", "no:cacheprovider", "-q", "--wsconf-adapter", args.adapter]
    return int(pytest.main(argv + (["--snapshot-update"] if args.update else [])))


def cmd_smoke(args) -> int:
    from ..port.smoke import smoke
    return smoke(args.adapter, args.timeout)


def register(sub) -> None:
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
    run.add_argument("--timeout", type=positive_seconds, default=None, help="seconds per adapter call (default 30)")
    run.add_argument("--no-expectations", action="store_true", help="ignore the expectations file")
    run.add_argument("--all-versions", action="store_true",
                     help="run every case whatever its `versions` say (how `make matrix` measures the ranges)")
    run.add_argument("--all-tools", action="store_true",
                     help="the summary shows every tool, not only the implementation's own")
    run.add_argument("-x", action="store_true", help="stop at the first failure")
    run.add_argument("--hermetic", action="store_true",
                     help="refuse to run unless the implementation can be confined (it is by default where bwrap "
                          "and the kernel allow: everything outside the case folders read-only)")
    run.add_argument("--unconfined", action="store_true",
                     help="run a subprocess implementation without confinement, only watched (the run says UNCONFINED)")
    run.add_argument("--max-line", default=None, help="largest response line the implementation may send (default 64MB)")
    run.add_argument("--keep-outputs", default=None,
                     help="the most kept of huge results as whole files beside --results (default 512MB)")
    run.add_argument("--fresh", type=int, default=None,
                     help="fresh cases per tool, generated for this run and answered by the reference (default 3; 0: none)")
    run.add_argument("--fresh-seed", type=int, default=None, help="the fresh cases' seed (default: new every run)")
    run.add_argument("--wait-workers", default=None, metavar="N|auto",
                     help="with -n: workers added for the cases that mostly wait, which start first (default auto: "
                          "as many as the selected cases' measured waits need; 0: none)")
    run.add_argument("pytest_args", nargs="*", help="further pytest arguments (after --)")
    run.set_defaults(func=cmd_run, reads_config=True)

    props = sub.add_parser("properties", help="the property tests (hypothesis) against an implementation")
    props.add_argument("--adapter", default="reference")
    props.add_argument("--compare", default=None, help="differential mode: a second implementation")
    props.add_argument("--profile", default="quick", choices=["quick", "thorough"],
                       help="quick (25 examples per property, for the test command) or thorough (2000)")
    props.add_argument("--fuzz-paths", type=int, default=None,
                       help="paths the containment fuzzer tries (default 100 quick, 2000 thorough; CI: 10000)")
    props.add_argument("--fuzz-calls", type=int, default=None,
                       help="calls the differential fuzzer of Node's edges makes, spread over the tools, with "
                            "--compare (default 200 quick, 5200 thorough; CI: 5200)")
    props.add_argument("-n", "--workers", default=None)
    props.add_argument("--timeout", type=float, default=30.0)
    props.add_argument("pytest_args", nargs="*")
    props.set_defaults(func=cmd_properties)

    snaps = sub.add_parser("snapshots", help="check an implementation against the committed snapshots (fixtures/repo)")
    snaps.add_argument("--adapter", default="reference")
    snaps.add_argument("--update", action="store_true",
                       help="regenerate from the reference (only when the spec changed; review the diff)")
    snaps.set_defaults(func=cmd_snapshots)

    sm = sub.add_parser("smoke", help="check a new adapter: handshake, tool list and a few cases, explained")
    sm.add_argument("adapter")
    sm.add_argument("--timeout", type=float, default=30.0)
    sm.set_defaults(func=cmd_smoke)
