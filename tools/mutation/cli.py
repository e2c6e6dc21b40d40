"""python -m tools.mutation: mutate wsref's behaviour modules, run the covering YAML cases, write MUTATION.md.

By default the mutants run inside bubblewrap (the whole file system read-only, a private /tmp and
process namespace, only the results folder writable): a mutant of the containment code must not be
able to write or delete outside the case's folder, even as root.
"""
from __future__ import annotations

import argparse
import compileall
import functools
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import engine, operators, report

# Every module of the reference is a target (a new one too, without being listed), except the
# runtime and npm ports of js/ (checked against the originals instead: ARCHITECTURE.md) and the wire
# protocol of server/ (the harness's side of the cases); tokenx is the one port measured here, as every
# tool's token counts go through it. A module with nothing to mutate (imports only) is left out.
EXCLUDED = ("wsref/js/", "wsref/server/")
EXTRA_TARGETS = ("wsref/js/tokenx.py",)
COMMAND = ".venv/bin/python -m tools.mutation"


@functools.lru_cache(maxsize=None)
def target_modules() -> tuple[str, ...]:
    found = []
    for path in sorted((engine.REFERENCE / "wsref").rglob("*.py")):
        module = str(path.relative_to(engine.REFERENCE))
        if module.startswith(EXCLUDED) or not operators.points(path.read_text(), module):
            continue
        found.append(module)
    return tuple(sorted(found + list(EXTRA_TARGETS), key=lambda m: (report.KINDS.index(report.module_kind(m)), m)))


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m tools.mutation", description=__doc__.splitlines()[0])
    p.add_argument("--module", action="append", default=[], metavar="wsref/PATH.py",
                   help="a module to mutate (repeatable); default: every target module")
    p.add_argument("--budget-seconds", type=float, default=None,
                   help="stop starting new mutants after this long (the rest are reported as not run)")
    p.add_argument("--lines", default=None, help="only mutants on these lines (comma-separated)")
    p.add_argument("--spec", type=Path, default=engine.REPO / "spec")
    p.add_argument("--results-dir", type=Path, default=engine.REPO / ".mutation")
    p.add_argument("--report", type=Path, default=engine.REPO / "MUTATION.md",
                   help="the summary: the score by module kind and by module, the open gaps")
    p.add_argument("--survivors", type=Path, default=Path(__file__).with_name("SURVIVORS.md"),
                   help="every survivor with its verdict, the gaps closed, the verdicts a kill contradicts")
    p.add_argument("--verdicts", type=Path, default=Path(__file__).with_name("verdicts.yaml"))
    p.add_argument("--record", type=Path, default=Path(__file__).with_name("recorded.json"),
                   help="what each module's last run measured (committed): the report takes a module from it while "
                        "its source is unchanged and .mutation/ has no results for it")
    p.add_argument("--report-only", action="store_true", help="rewrite the report from the saved results")
    p.add_argument("--fresh", action="store_true",
                   help="run every mutant again (default, for an unchanged module source: keep each kill whose "
                        "case is unchanged and each survivor no new or changed case covers, and run the rest)")
    p.add_argument("--no-sandbox", action="store_true", help="run the mutants without bubblewrap")
    p.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    modules = args.module or list(target_modules())
    for m in modules:
        if not (engine.REFERENCE / m).is_file():
            print(f"no such module: {m} (give it as wsref/...py)", file=sys.stderr)
            return 2
    args.results_dir.mkdir(parents=True, exist_ok=True)
    if not args.report_only:
        if args.inside or args.no_sandbox:
            rc = run(args, modules)
            if args.inside:
                return rc
        else:
            bwrap = shutil.which("bwrap")
            if bwrap is None:
                print("bubblewrap (bwrap) is not installed: install it, or pass --no-sandbox", file=sys.stderr)
                return 2
            cmd = [bwrap, "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--dev", "/dev", "--proc", "/proc",
                   "--unshare-pid", "--die-with-parent",
                   # a checkout (or its venv) under /tmp would be hidden by the private /tmp
                   "--ro-bind", str(engine.REPO), str(engine.REPO), "--ro-bind", sys.prefix, sys.prefix]
            for ro in {args.spec.resolve(), args.verdicts.resolve().parent}:
                cmd += ["--ro-bind", str(ro), str(ro)]
            # the sandbox is read-only: compile the sources first, or every re-import compiles them again
            compileall.compile_dir(str(engine.REFERENCE / "wsref"), quiet=1)
            compileall.compile_dir(str(engine.HARNESS), quiet=1)
            compileall.compile_dir(str(engine.REPO / "tools" / "mutation"), quiet=1)
            res = str(args.results_dir.resolve())
            cmd += ["--bind", res, res, "--chdir", str(engine.REPO), "--", sys.executable, "-m", "tools.mutation",
                    *(sys.argv[1:] if argv is None else argv), "--inside"]
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
            rc = subprocess.call(cmd, env=env)
            if rc:
                return rc
    # the report covers every target module (and any other module named), measured or not
    listed = list(target_modules()) + [m for m in modules if m not in target_modules()]
    summary = report.write(args.report, args.survivors, args.results_dir, listed, args.spec, args.verdicts, COMMAND,
                           record_path=args.record, run=_commit())
    t = summary["totals"]
    print(f"wrote {args.report} and {args.survivors}: {len(summary['rows'])} modules measured, "
          f"{len(summary['unmeasured'])} not; score {report.fmt(t['score']) if t else 'n/a'}; "
          f"{len(summary['survivors'])} survivors, {len(summary['open'])} open gaps")
    return 0


def _commit() -> str:
    """The checkout's commit, as a recorded run names where it was measured."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=engine.REPO, capture_output=True, text=True,
                             timeout=10)
        return f"run on {out.stdout.strip()}" if out.returncode == 0 else "run here"
    except OSError:
        return "run here"


def _case_file(case) -> str:
    """spec/cases/x.yaml -> cases/x.yaml (as engine.case_files names them)."""
    parts = Path(case.file).parts
    return str(Path(*parts[1:])) if not Path(case.file).is_absolute() else case.file


# The mutants run in a time zone that is not UTC, three and a half hours off it, so that a time taken
# from the local clock instead of UTC fails the cases ({{iso_now}}) wherever the run happens. The
# whole suite passes on the reference in any zone; the upstream's Dates are UTC too.
MUTATION_TZ = "America/St_Johns"


def run(args, modules) -> int:
    from wsconf.spec import load_spec
    os.environ["TZ"] = MUTATION_TZ
    time.tzset()
    spec = load_spec(args.spec)
    if spec.errors:
        print("the spec has errors:", *spec.errors, sep="\n  ", file=sys.stderr)
        return 2
    cases_by_id = {c.id: c for c in spec.cases}
    coverage = engine.collect_coverage(spec.cases, args.spec, args.results_dir)
    key = engine.spec_key(args.spec)
    files = engine.case_files(args.spec)
    hashes = engine.case_hashes(spec.cases)
    lines = {int(x) for x in args.lines.split(",")} if args.lines else None
    deadline = None if args.budget_seconds is None else time.monotonic() + args.budget_seconds
    for module in modules:
        started = time.monotonic()
        print(f"{module}: mutating ...", flush=True)
        source_sha = engine.sha_of_files([engine.REFERENCE / module])
        path = report.results_path(args.results_dir, module)
        path.parent.mkdir(parents=True, exist_ok=True)
        reuse = survivors = new_cases = None
        if path.exists() and not args.fresh:
            old = json.loads(path.read_text())
            same_run = old["source_sha"] == source_sha and old.get("lines") == (sorted(lines) if lines else None)
            if same_run and old.get("case_hashes"):
                # per case: a kill is kept while its killing case is unchanged; a survivor (or a
                # timeout) while no new or changed case covers it
                then = old["case_hashes"]
                changed_ids = {cid for cid, h in hashes.items() if then.get(cid) != h}
                reuse = {r["id"]: r for r in old["mutants"]
                         if r["status"] == "killed" and r.get("by") in hashes and r["by"] not in changed_ids}
                survivors = {r["id"]: r for r in old["mutants"] if r["status"] in ("survived", "uncovered", "timeout")}
                new_cases = changed_ids
                print(f"{module}: keeping {len(reuse)} kills of the earlier run (their cases are unchanged); "
                      f"{len(new_cases)} cases are new or changed since")
            elif same_run and all(files.get(f) == sha for f, sha in old.get("case_files", {}).items()) and old.get("case_files"):
                reuse = {r["id"]: r for r in old["mutants"] if r["status"] in ("killed", "timeout")}
                survivors = {r["id"]: r for r in old["mutants"] if r["status"] in ("survived", "uncovered")}
                changed = {f for f, sha in files.items() if old["case_files"].get(f) != sha}
                new_cases = {c.id for c in spec.cases if _case_file(c) in changed}
                print(f"{module}: keeping {len(reuse)} kills of the earlier run (its case files are unchanged); "
                      f"{len(new_cases)} cases are new or changed since")

        def save(rows, rest=()):
            data = {"module": module, "source_sha": source_sha, "spec_key": key, "case_files": files,
                    "case_hashes": hashes,
                    "lines": sorted(lines) if lines else None,
                    "mutants": rows + [{"id": m.id, "line": m.line, "kind": m.kind, "description": m.description,
                                        "scope": m.scope_name, "status": "not_run"} for m in rest]}
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(data, indent=1))
            tmp.replace(path)

        rows = engine.run_module(module, cases_by_id, coverage, lines=lines, deadline=deadline,
                                 log=lambda s: print(s, flush=True), save=save, reuse=reuse,
                                 survivors=survivors, new_cases=new_cases)
        save(rows)
        elapsed = time.monotonic() - started
        c = report.counts(rows, report.load_verdicts(args.verdicts))
        rate = len([r for r in rows if r["status"] != "not_run"]) / max(elapsed, 1e-9) * 60
        print(f"{module}: {c['total']} mutants, {c['killed']} killed, {c['timeout']} timeout, {c['survived']} survived, "
              f"{c['equivalent']} equivalent, {c['error']} not applied, {c['not_run']} not run; "
              f"{elapsed:.0f} s ({rate:.0f} mutants/min)", flush=True)
    return 0
