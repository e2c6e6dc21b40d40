"""Coverage per case, and running each mutant against the cases that cover it, one forked child per mutant.

The parent never runs a case itself (so it holds no threads when it forks). Each child:
- applies its mutant in memory: a mutant inside a function gets the function's code object swapped
  for the mutated one (every reference to the function sees it); a mutant at module or class level
  re-imports wsref with the mutated module compiled from the mutated tree;
- runs the cases that cover the mutant's statement, cheapest first, and stops at the first one that
  fails (killed);
- is killed by the parent at its deadline (a timeout: killed as well, as a hang fails the suite).
"""
from __future__ import annotations

import gc
import hashlib
import importlib.abc
import importlib.util
import json
import os
import re
import select
import signal
import sys
import threading
import time
import types
from pathlib import Path

from . import operators

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "reference"
HARNESS = REPO / "conformance" / "wsconf"
ADAPTER_TIMEOUT = 15.0


def _name(p) -> str:
    """A path as the hashes see it: relative to the checkout, so results move between checkouts."""
    p = Path(p).resolve()
    return str(p.relative_to(REPO)) if p.is_relative_to(REPO) else p.name


def sha_of_files(paths) -> str:
    h = hashlib.sha256()
    for p in sorted(paths, key=_name):
        h.update(_name(p).encode() + b"\0" + Path(p).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def case_files(spec_root: Path) -> dict[str, str]:
    """Each case file of the spec -> its hash."""
    root = Path(spec_root)
    return {str(p.relative_to(root)): sha_of_files([p]) for p in sorted(root.joinpath("cases").rglob("*.yaml"))}


def case_hashes(cases) -> dict[str, str]:
    """Each case id -> the hash of its content without `versions` (as the release matrix keys it): a
    kill stays true while the case that made it is unchanged, whatever else the spec gains."""
    from wsconf.releases.matrix import case_hash
    return {c.id: case_hash(c) for c in cases}


def spec_key(spec_root: Path) -> str:
    return sha_of_files(list(Path(spec_root).rglob("*.yaml")))


def sources_key() -> str:
    return sha_of_files(list(REFERENCE.joinpath("wsref").rglob("*.py")) + list(HARNESS.rglob("*.py")))


def _fork_call(fn, deadline: float | None):
    """Run fn() in a forked child (own process group); its JSON answer, or 'timeout' / 'crash'."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            os.close(r)
            os.setpgid(0, 0)
            devnull = os.open(os.devnull, os.O_RDWR)
            os.dup2(devnull, 0), os.dup2(devnull, 1), os.dup2(devnull, 2)
            answer = fn()
            data = json.dumps(answer).encode()
            view = memoryview(data)
            while view:
                n = os.write(w, view)
                view = view[n:]
        except BaseException:
            code = 3
        finally:
            os._exit(code)
    os.close(w)
    chunks, timed_out = [], False
    while True:
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([r], [], [], wait)
        if not ready:
            continue
        chunk = os.read(r, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(r)
    if timed_out:
        _kill_group(pid)
    os.waitpid(pid, 0)
    _kill_group(pid)   # anything the child left running in its group
    if timed_out:
        return "timeout"
    try:
        return json.loads(b"".join(chunks))
    except ValueError:
        return "crash"


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# ---------------------------------------------------------------- coverage, once per spec + sources

def collect_coverage(cases, spec_root: Path, cache_dir: Path, log=print) -> dict:
    """{case_id: {"outcome", "duration", "lines": {module: [line, ...]}}}.

    Cached per case file, by the file's hash and the hash of every reference and harness source:
    only the case files that are new or changed are run again."""
    sources = sources_key()
    files = case_files(spec_root)
    cache = cache_dir / "coverage.json"
    data = json.loads(cache.read_text()) if cache.exists() else {}
    if data.get("sources") != sources:
        data = {"sources": sources, "files": {}}
    by_file: dict[str, list] = {}
    for case in cases:  # case.file is relative to the spec folder's parent (spec/cases/x.yaml)
        rel = str(Path(case.file).relative_to(Path(case.file).parts[0])) if not Path(case.file).is_absolute() \
            else str(Path(case.file).relative_to(Path(spec_root)))
        by_file.setdefault(rel, []).append(case)
    stale = [f for f in by_file if data["files"].get(f, {}).get("sha") != files.get(f)]
    if stale:
        todo = [c for f in stale for c in by_file[f]]
        log(f"collecting line coverage of {len(todo)} cases in {len(stale)} case files "
            "(cached by the files' hashes) ...")
        started = time.monotonic()
        answer = _fork_call(lambda: _coverage_child(todo), None)
        if not isinstance(answer, dict):
            raise SystemExit(f"the coverage run failed: {answer}")
        for f in stale:
            data["files"][f] = {"sha": files.get(f), "cases": {c.id: answer[c.id] for c in by_file[f]}}
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(cache)
        log(f"coverage collected in {time.monotonic() - started:.0f} s")
    return {cid: rec for f in by_file for cid, rec in data["files"][f]["cases"].items()}


def _coverage_child(cases) -> dict:
    from wsconf.adapters.registry import load_adapter
    from wsconf.judge.runner import run_case
    prefix = str(REFERENCE) + os.sep
    current: set = set()

    def local(frame, event, arg):
        if event == "line":
            current.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def tracer(frame, event, arg):
        return local if frame.f_code.co_filename.startswith(prefix) else None

    threading.settrace(tracer)
    sys.settrace(tracer)
    adapter = load_adapter("reference", timeout=ADAPTER_TIMEOUT * 2)
    out = {}
    for case in cases:
        current.clear()
        t0 = time.monotonic()
        result = run_case(case, adapter)
        duration = time.monotonic() - t0
        lines: dict[str, list[int]] = {}
        for filename, line in list(current):
            lines.setdefault(os.path.relpath(filename, REFERENCE), []).append(line)
        out[case.id] = {"outcome": result.outcome, "duration": round(duration, 4),
                        "lines": {k: sorted(v) for k, v in lines.items()}}
    sys.settrace(None)
    threading.settrace(None)
    return out


# ---------------------------------------------------------------- mutants

class _MutatedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, name: str, filename: str, code):
        self.name, self.filename, self.code = name, filename, code

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=self.filename)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__file__ = self.filename
        exec(self.code, module.__dict__)


def module_name(module: str) -> str:
    return module.removesuffix(".py").replace("/", ".")


def loaded_with_the_adapter(module: str) -> bool:
    """Whether loading the reference adapter imports the module (checked in a fresh interpreter).
    Only then can a case that merely lists the tools see a value the module computes at import; a
    module imported later, by a call, shows those values only to the cases that run its lines."""
    import subprocess
    probe = ("import sys\nfrom wsconf.adapters.registry import load_adapter\n"
             f"load_adapter('reference')\nprint({module_name(module)!r} in sys.modules)")
    try:
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                              cwd=REPO)
    except subprocess.TimeoutExpired:
        return True   # unknown: keep the listings (slower, never a false survivor)
    return done.stdout.strip().splitlines()[-1:] != ["False"]


def live_functions(filename: str) -> dict:
    """(co_name, co_firstlineno) -> the function objects of this file alive now."""
    out: dict = {}
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType) and obj.__code__.co_filename == filename:
            out.setdefault((obj.__code__.co_name, obj.__code__.co_firstlineno), []).append(obj)
    return out


def _find_code(code, name: str, firstlineno: int):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name == name and const.co_firstlineno == firstlineno:
                return const
            found = _find_code(const, name, firstlineno)
            if found is not None:
                return found
    return None


def _apply_in_child(mutant: operators.Mutant, source: str, filename: str, functions: dict) -> None:
    tree = operators.apply(source, mutant)
    code = compile(tree, filename, "exec", dont_inherit=True)
    live = functions.get(tuple(mutant.scope)) if mutant.scope is not None else None
    new = _find_code(code, *mutant.scope) if live else None
    # A swap needs the same free variables (removing a super() call drops the __class__ cell): else re-import.
    if new is not None and all(fn.__code__.co_freevars == new.co_freevars for fn in live):
        # Closures the scope function already made (grep's TOOL = create_grep_tool() at import) hold
        # its old nested code: swapping only the factory would leave them unmutated. Swap them too,
        # or re-import when one has no counterpart with the same free variables.
        nested = _nested_swaps(live[0].__code__, new, functions, tuple(mutant.scope))
        if nested is not None:
            for fn in live:
                fn.__code__ = new
            for fns, code_ in nested:
                for fn in fns:
                    fn.__code__ = code_
            return
    # module or class level: re-import the reference with this module mutated
    for name in [m for m in sys.modules if m == "wsref" or m.startswith("wsref.")
                 or m in ("wsconf.adapters.reference", "wsconf.adapters.registry")]:
        del sys.modules[name]
    sys.meta_path.insert(0, _MutatedModuleFinder(module_name(mutant.module), filename, code))


def _nested_swaps(old, new, functions: dict, scope: tuple):
    """[(live closures, their mutated code)] for the functions nested in `old` that are alive now;
    None when one of them has no counterpart in `new` with the same free variables."""
    out = []
    for key, fns in functions.items():
        if key == scope or _find_code(old, *key) is None:
            continue
        code_ = _find_code(new, *key)
        if code_ is None or any(fn.__code__.co_freevars != code_.co_freevars for fn in fns):
            return None
        out.append((fns, code_))
    return out


def _mutant_child(mutant, source, filename, functions, cases) -> dict:
    try:
        _apply_in_child(mutant, source, filename, functions)
    except Exception as exc:  # the tool could not apply it: not a verdict on the suite
        return {"status": "error", "outcome": f"{type(exc).__name__}: {exc}"}
    try:
        from wsconf.adapters.registry import load_adapter
        from wsconf.judge.runner import run_case
        adapter = load_adapter("reference", timeout=ADAPTER_TIMEOUT)
    except Exception as exc:  # the mutated reference does not even import: every case errors
        return {"status": "killed", "by": "(import)", "outcome": f"{type(exc).__name__}"}
    for case in cases:
        try:
            result = run_case(case, adapter)
        except Exception as exc:  # the harness itself broke on what the mutant returned: the case errors
            return {"status": "killed", "by": case.id, "outcome": f"harness error {type(exc).__name__}"}
        if not result.ok:
            return {"status": "killed", "by": case.id, "outcome": result.outcome}
    return {"status": "survived"}


def select_cases(mutant: operators.Mutant, covering: dict, module_cases: set, listing: set, passed: dict,
                 family: set, killers: dict) -> list[str]:
    """The ids of the cases to run for this mutant. The order only decides how soon a mutant dies:
    the cases that killed most mutants of this module so far, then the module's own tool's cases,
    then the cheapest."""
    if mutant.scope is None:   # evaluated at import: every case that runs this module, and the tool listings
        ids = (module_cases | listing)
        return sorted(ids, key=lambda c: (-killers.get(c, 0), c not in family, c not in listing, passed[c]))
    ids = set()
    for line in range(mutant.lines[0], mutant.lines[1] + 1):
        ids |= covering.get(line, set())
    return sorted(ids, key=lambda c: (-killers.get(c, 0), c not in family, passed[c]))


def run_module(module: str, cases_by_id: dict, coverage: dict, *, lines: set[int] | None,
               deadline: float | None, log=print, save=None, reuse: dict | None = None,
               survivors: dict | None = None, new_cases: set | None = None) -> list[dict]:
    """reuse: id -> the row of a mutant an earlier run killed, with case files that are all still unchanged.
    survivors: id -> the row of a mutant that survived that run; it is kept when no case from a new or
    changed case file covers it now (the unchanged cases would let it survive again), else run again."""
    filename = str(REFERENCE / module)
    source = Path(filename).read_text()
    mutants = operators.points(source, module)
    if lines:
        mutants = [m for m in mutants if m.line in lines]
    passed = {cid: c["duration"] for cid, c in coverage.items() if c["outcome"] == "passed" and cid in cases_by_id}
    covering: dict[int, set] = {}
    module_cases: set = set()
    for cid in passed:
        for line in coverage[cid]["lines"].get(module, ()):
            covering.setdefault(line, set()).add(cid)
            module_cases.add(cid)
    listing = {cid for cid in passed if any(("tool_info" in s) or not any(k in s for k in (
        "tool", "fs", "workspace", "retool", "hook_log", "host")) for s in cases_by_id[cid].steps)}
    if not loaded_with_the_adapter(module):   # e.g. skills/publish.py: its import-time values reach no listing
        listing = set()
    stem = Path(module).stem
    tool_ids = set(re.findall(r"[\"'](mastra_workspace_\w+)[\"']", source))
    family = {cid for cid in passed if cases_by_id[cid].tool == stem or stem in cases_by_id[cid].families
              or tool_ids & set(cases_by_id[cid].tools_called)}
    killers: dict[str, int] = {}
    for row in (reuse or {}).values():
        killers[row.get("by")] = killers.get(row.get("by"), 0) + 1
    import wsconf.adapters.registry  # noqa: F401  (wsref imported before the fork: functions to patch)
    importlib.import_module(module_name(module))
    functions = live_functions(filename)
    if threading.active_count() > 1:
        log("warning: the parent holds threads; forking anyway")
    out = []
    started = time.monotonic()
    for i, m in enumerate(mutants):
        row = {"id": m.id, "line": m.line, "kind": m.kind, "description": m.description, "scope": m.scope_name}
        ids = select_cases(m, covering, module_cases, listing, passed, family, killers)
        if reuse and m.id in reuse:
            row = dict(reuse[m.id], line=m.line, description=m.description, scope=m.scope_name, reused=True)
        elif survivors and m.id in survivors and not (set(ids) & (new_cases or set())) and \
                (bool(ids) == (survivors[m.id]["status"] != "uncovered")):
            row = dict(survivors[m.id], line=m.line, description=m.description, scope=m.scope_name, reused=True)
        elif deadline is not None and time.monotonic() >= deadline:
            row.update(status="not_run")
        elif not ids:
            row.update(status="uncovered")
        else:
            budget = 10 + 3 * sum(passed[c] for c in ids)
            t0 = time.monotonic()
            answer = _fork_call(lambda: _mutant_child(m, source, filename, functions,
                                                      [cases_by_id[c] for c in ids]), t0 + budget)
            row["seconds"] = round(time.monotonic() - t0, 2)
            row["cases"] = len(ids)
            if answer == "timeout":
                row.update(status="timeout")
            elif answer == "crash":
                row.update(status="error")
            else:
                row.update(answer)
                if answer.get("status") == "killed":
                    killers[answer["by"]] = killers.get(answer["by"], 0) + 1
        out.append(row)
        if save and (i % 25 == 24):
            save(out, mutants[i + 1:])
        if (i + 1) % 50 == 0:
            rate = (i + 1) / max(time.monotonic() - started, 1e-9) * 60
            log(f"  {module}: {i + 1}/{len(mutants)} mutants, {rate:.0f}/min")
    return out
