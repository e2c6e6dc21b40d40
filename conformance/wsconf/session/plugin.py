"""pytest plugin: every spec case becomes a test item whose id is the case id.

Loaded through the `pytest11` entry point, so `pytest spec/cases` runs the suite and -k, -x,
--junitxml and -n (xdist) work as usual. Results for reports travel in user_properties so they
reach the controller under xdist too.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import signal
import sys
from collections import Counter
from pathlib import Path

import pytest

from ..adapters.base import AdapterFault
from ..adapters.registry import load_adapter
from ..adapters.subprocess import DEFAULT_MAX_LINE
from ..isolation import reaper, sizes, watch
from ..judge.render import for_terminal, visible
from ..judge.harm import record_fields as findings_fields
from ..judge.runner import ERROR, NOT_APPLICABLE, PASSED, UNSUPPORTED, not_run, run_case
from ..results.journal import Journal
from ..spec.capability_aliases import expand
from ..spec.digest import spec_digest
from ..spec.loader import load_spec
from ..spec.tool_names import family_of, spec_tools, tool_id, unknown_tools
from ..spec.versions import implementation_version
from . import confinement, expectations, fresh, scheduling
from .findings import terminal_lines
from .guards import check_options, positive_seconds
from .header import describe_run, header_lines
from .nothing_tested import nothing_tested
from .summary import XFAIL, XPASS, summary_lines

KEEP_CAP = 512 * 1024 * 1024


def pytest_addoption(parser):
    group = parser.getgroup("wsconf", "wsconf conformance suite")
    group.addoption("--wsconf-adapter", default="reference",
                    help="implementation under test: reference, mastra, cmd:<command>, module:Class, or an entry-point name")
    group.addoption("--wsconf-timeout", type=positive_seconds, default=30.0, help="seconds per adapter call (default 30)")
    group.addoption("--wsconf-results", default=None, help="write one JSON object per case to this file")
    group.addoption("--wsconf-expectations", default=None,
                    help="folder of expectations files (default: conformance/expectations)")
    group.addoption("--wsconf-no-expectations", action="store_true",
                    help="ignore the implementation's expectations file (every failure counts)")
    group.addoption("--wsconf-all-versions", action="store_true",
                    help="run every case whatever its `versions` say (the release matrix measures them so)")
    group.addoption("--wsconf-compare", default=None,
                    help="property tests: a second implementation to run the same generated inputs against")
    group.addoption("--wsconf-claim", action="append", default=[], help="only cases checking this claim id (repeatable)")
    group.addoption("--wsconf-tag", action="append", default=[], help="only cases with this tag (repeatable)")
    group.addoption("--wsconf-tool", action="append", default=[], help="only cases of this tool family or calling this tool (repeatable)")
    group.addoption("--wsconf-ids", default=None,
                    help="only the cases whose ids this file lists, one a line (how `wsconf matrix run` reruns the stale ones)")
    group.addoption("--wsconf-tools", default=None,
                    help="comma-separated tools the implementation has, e.g. read_file,write_file; cases calling "
                         "any other are unsupported (default: what its hello declares, else all)")
    group.addoption("--wsconf-max-line", type=size, default=DEFAULT_MAX_LINE,
                    help="largest response line an implementation may send, e.g. 64MB (the default): a longer one is a fault")
    group.addoption("--wsconf-all-tools", action="store_true",
                    help="the summary shows every tool, not only the implementation's own")
    group.addoption("--wsconf-hermetic", action="store_true",
                    help="refuse to run unless the implementation can be confined (it is by default, where bwrap "
                         "and the kernel allow)")
    group.addoption("--wsconf-unconfined", action="store_true",
                    help="run a subprocess implementation without confinement, only watched (the run says UNCONFINED)")
    group.addoption("--wsconf-fresh", type=int, default=fresh.PER_TOOL,
                    help="fresh cases generated per tool for this run, whose expected answers the reference "
                         f"computes (default {fresh.PER_TOOL}; 0: none)")
    group.addoption("--wsconf-fresh-seed", type=int, default=None,
                    help="the seed of the fresh cases (default: new every run; the results' first line names it)")
    group.addoption("--wsconf-wait-workers", type=wait_workers_option,
                    default=os.environ.get("WSCONF_WAIT_WORKERS", "auto"),  # argparse checks it by its type
                    help="with -n: workers started beside the -n ones for the cases that mostly wait, so their "
                         "waits overlap (default auto, or $WSCONF_WAIT_WORKERS: as many as the selected cases' "
                         f"waits need, at most {scheduling.MAX_WAIT_WORKERS}; 0: none, for a machine whose cores "
                         "are busy anyway, e.g. several suites run at once)")
    group.addoption("--wsconf-keep-outputs", type=size, default=KEEP_CAP,
                    help="the most the run keeps of huge results as whole files beside --wsconf-results, e.g. "
                         "512MB (the default); past it a result is kept truncated only")


def read_ids(path, spec) -> frozenset[str]:
    """The case ids a file lists, one a line (blank lines and # comments skipped); an id the spec
    lacks is a usage error naming the file and line."""
    known = {case.id for case in spec.cases}
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise pytest.UsageError(f"--ids {path}: {exc.strerror}") from None
    wanted = set()
    for number, line in enumerate(lines, 1):
        case_id = line.strip()
        if not case_id or case_id.startswith("#"):
            continue
        if case_id not in known:
            raise pytest.UsageError(f"{path}:{number}: {case_id!r} is not a case id of {spec.root}")
        wanted.add(case_id)
    return frozenset(wanted)


def wait_workers_option(text) -> str | int:
    if str(text).strip() == "auto":
        return "auto"
    if not str(text).strip().isdigit():
        raise argparse.ArgumentTypeError(f"not a number of workers or auto: {text!r} "
                                         "(from --wait-workers, or else $WSCONF_WAIT_WORKERS)")
    return int(text)


def size(text) -> int:
    """4096, 64MB, 300M, 1GiB: bytes."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]?)(?:I?B)?\s*", str(text), re.IGNORECASE)
    if not found:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 64MB)")
    return int(float(found.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[found.group(2).upper()])


class WsconfState:
    """Per-process state: the loaded spec and the adapter (created on first use)."""

    def __init__(self, config):
        self.config = config
        self.spec = None
        self._adapter = None
        self.adapter_error = None
        self._expected = None
        self.results: list[dict] = []
        self.closed = False
        self.reference = None   # the reference, in this process, for the fresh cases' expected answers
        self.fresh_expected: dict[str, str] = {}  # tool -> why its fresh cases are known to differ

    def load(self, spec_root: Path):
        if self.spec is None or self.spec.root != spec_root:
            self.spec = load_spec(spec_root)
        return self.spec

    def ids(self, spec) -> frozenset[str] | None:
        """The case ids `--wsconf-ids` lists (None: no such option)."""
        path = self.config.getoption("wsconf_ids")
        if path is None:
            return None
        if getattr(self, "_ids", None) is None:
            self._ids = read_ids(path, spec)
        return self._ids

    @property
    def adapter(self):
        if self._adapter is None and self.adapter_error is None:
            self._adapter, self.adapter_error = start_adapter(self.config)
        if self.adapter_error:
            raise AdapterFault(self.adapter_error)
        return self._adapter

    def implemented(self) -> tuple[frozenset[str] | None, str]:
        """The tool ids the implementation has, and where that came from."""
        option = self.config.getoption("wsconf_tools")
        if option:
            return frozenset(tool_id(t.strip()) for t in option.split(",") if t.strip()), "from the configuration"
        if self.adapter.tools is not None:
            return self.adapter.tools, "declared by the implementation"
        return None, ""

    def expectations_file(self) -> Path | None:
        if self.config.getoption("wsconf_no_expectations"):
            return None
        return expectations.resolve(self.adapter.name, self.config.getoption("wsconf_expectations"),
                                    self.adapter.version, implementation_version(self.adapter))

    def expected_failures(self) -> dict[str, str]:
        if self.config.getoption("wsconf_no_expectations"):
            return {}
        if self._expected is None:  # read once per process, not once per case
            self._expected = expectations.load(self.adapter.name, self.config.getoption("wsconf_expectations"),
                                               self.adapter.version, implementation_version(self.adapter))
        return self._expected

    def describe(self, spec_root: Path) -> dict:
        if not self.config.getoption("wsconf_no_expectations"):  # read before the implementation runs
            self.fresh_expected = expectations.fresh_differences(
                self.adapter.name, self.config.getoption("wsconf_expectations"), self.adapter.version,
                implementation_version(self.adapter))
        implemented, source = self.implemented()
        return {**describe_run(self.adapter, self.config.getoption("wsconf_adapter"), implemented, source,
                               self.expectations_file(), len(self.expected_failures()), spec_root),
                "expectations_missing": self.expectations_missing(),
                "confinement": confinement.describe(self.adapter), "spec_sha256": spec_digest(spec_root),
                "fresh_seed": self.config.stash.get(SEED, None)}

    def expectations_missing(self) -> str | None:
        """Why no expectations file is in force: the file looked for is named after hello's name."""
        if self.config.getoption("wsconf_no_expectations"):
            return "--no-expectations"
        if self.expectations_file() is not None:
            return None
        looked_for = expectations.path_for(self.adapter.name, self.config.getoption("wsconf_expectations"))
        return f"no {looked_for} (named after the implementation's name in hello, {self.adapter.name!r})"

    def close(self):
        """Stop the implementation (once); what it said of itself stays for the summary."""
        if self._adapter is not None and not self.closed:
            self.closed = True
            self._adapter.close()
        if self.reference is not None:
            self.reference.close()
            self.reference = None


def start_adapter(config):
    """(the adapter, None), or (None, why it cannot start). Confined where the kernel allows
    (session/confinement.py); the harness is a subreaper before anything starts, so what the
    implementation starts before its hello, or detaches, still comes back to it."""
    reaper.become_subreaper()
    name = config.getoption("wsconf_adapter")
    try:
        confined = confinement.for_run(config, _spec_roots_in_args(config))
        if confinement.mode(config) == "required" and not confined.confined:
            return None, f"cannot confine adapter {name!r} (--hermetic): {confined.reason}"
        return load_adapter(name, config.getoption("wsconf_timeout"), max_line=config.getoption("wsconf_max_line"),
                            confinement=confined), None
    except (AdapterFault, ValueError, ImportError, AttributeError) as exc:
        return None, f"could not start adapter {name!r}: {exc}"


def pytest_configure(config):
    global _journal
    # The cases pin new files' modes as Node makes them under the usual umask 022 (644, 755); set it
    # here, before any implementation starts, so a runner with umask 002 or 077 judges the same.
    os.umask(0o022)
    config.stash[STATE] = WsconfState(config)
    config.addinivalue_line("markers", "wsconf: a conformance case from spec/cases")
    if not _spec_roots_in_args(config):
        return  # the project's own tests, or the property tests: no run of the suite
    check_options(config)  # before any file is opened for writing: a usage error loses nothing
    reaper.become_subreaper()
    results = config.getoption("wsconf_results")
    sizes.set_output_dir(f"{results}.outputs" if results else None, config.getoption("wsconf_keep_outputs"))
    if config.getoption("wsconf_ids") is not None and not hasattr(config, "workerinput"):
        for root in _spec_roots_in_args(config):  # checked once, before collection
            read_ids(config.getoption("wsconf_ids"), config.stash[STATE].load(root))
    config.stash[SEED] = _fresh_seed(config)
    _LEFT.clear()  # pytest.main may run more than once in one process
    if not hasattr(config, "workerinput"):
        _results.clear()
        _journal = Journal(results, getattr(config.option, "xmlpath", None))
        if results:
            Path(f"{results}.outputs").mkdir(parents=True, exist_ok=True)  # there to be hidden when confined
        _watch_outside(config)
    # A CI timeout's SIGTERM ends the run like Ctrl-C: results kept, adapter and its processes stopped.
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        try:
            signal.signal(signal.SIGTERM, _interrupt)
        except ValueError:
            pass  # not the main thread


SEED = pytest.StashKey[int]()
ESTIMATES = pytest.StashKey[dict]()


def _add_wait_workers(config, spec, adapter, implemented) -> None:
    """With -n: the workers for the waiting cases (session/scheduling.py), added to xdist's list
    before it starts any (its sessionstart comes after this one), and the estimates its scheduler
    deals by. Counted over the selected cases the implementation will run (hello said what it has)."""
    if not getattr(config.option, "numprocesses", None) or not getattr(config.option, "tx", None):
        return
    config.stash[ESTIMATES] = estimate = scheduling.estimates(config.getoption("wsconf_adapter"))
    extra = config.getoption("wsconf_wait_workers")
    if extra == "auto":
        chosen, every = selection(config, spec), config.getoption("wsconf_all_versions")
        extra = scheduling.wait_workers(len(config.option.tx), [
            estimate.get(case.id, 0.0) for case in spec.cases
            if chosen(case) and estimate.get(case.id, 0.0) and not_run(case, adapter, implemented, every) is None])
    config.option.tx = list(config.option.tx) + ["popen"] * extra
    config.stash[WAIT_WORKERS] = extra


WAIT_WORKERS = pytest.StashKey[int]()


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """The waiting cases first (session/scheduling.py), for a run of the suite dealt as `load`, what
    -n deals by (a --dist named on the command line keeps xdist's own dealing)."""
    if ESTIMATES in config.stash and config.getvalue("dist") == "load":
        return scheduling.WaitsFirstScheduling(config, log, config.stash[ESTIMATES], config.stash.get(WAIT_WORKERS, 0))
    return None


def _fresh_seed(config) -> int:
    """The fresh cases' seed: given, else made once on the controller and handed to each worker."""
    if hasattr(config, "workerinput") and "wsconf_fresh_seed" in config.workerinput:
        return config.workerinput["wsconf_fresh_seed"]
    given = config.getoption("wsconf_fresh_seed")
    return given if given is not None else secrets.randbits(31)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist: a worker makes the same fresh cases as every other."""
    if SEED in node.config.stash:
        node.workerinput["wsconf_fresh_seed"] = node.config.stash[SEED]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """After the selection (-k, --wsconf-tool ...): the fresh cases of each selected tool."""
    if not config.getoption("wsconf_fresh") or config.getoption("wsconf_ids") is not None or SEED not in config.stash:
        return
    try:
        implemented = config.stash[STATE].implemented()[0]  # on a worker, its implementation says hello here
    except AdapterFault:
        return  # it cannot start: every case says so
    first: dict[str, CaseItem] = {}
    for item in items:
        if isinstance(item, CaseItem) and not isinstance(item, FreshItem):
            tool = item.case.tool
            if tool in fresh.GENERATORS and (implemented is None or tool_id(tool) in implemented):
                first.setdefault(tool, item)
    for tool, example in sorted(first.items()):
        for n in range(1, config.getoption("wsconf_fresh") + 1):
            items.append(FreshItem.from_parent(example.parent, name=fresh.case_id(tool, n), tool=tool, n=n,
                                               claims=example.case.claims))


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


STATE = pytest.StashKey[WsconfState]()
_journal: Journal | None = None   # on the controller: results written as each case finishes


def _spec_roots_in_args(config) -> list[Path]:
    """The spec folders the command line runs cases from (none for the project's own tests)."""
    roots = []
    for arg in config.args:
        path = Path(str(arg).split("::")[0]).resolve()
        for candidate in (path, *path.parents):
            if (candidate / "claims.yaml").is_file() and (candidate / "cases").is_dir():
                roots.append(candidate)
                break
    return roots


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """Before any case (and before xdist starts its workers): start the implementation once, say what
    is judged, and end the run here, once, when it cannot start."""
    config = session.config
    roots = _spec_roots_in_args(config)
    if hasattr(config, "workerinput") or not roots:
        return
    state = config.stash[STATE]
    try:
        state.load(roots[0])  # the loaded spec's cache written before the implementation starts, so hidden
        run = state.describe(roots[0])
    except expectations.ExpectationsError as exc:
        raise pytest.UsageError(f"wsconf: bad expectations file: {exc}") from None
    except AdapterFault as exc:
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        detail = f"wsconf: the implementation cannot start, so no case was run.\n{exc}"
        if reporter is not None:
            reporter.write_line(detail, red=True)
        else:
            print(detail, file=sys.stderr)
        pytest.exit("wsconf: the implementation cannot start (the reason is above)", returncode=3)
    implemented, _ = state.implemented()
    spec = state.load(roots[0])
    unknown = sorted(unknown_tools(implemented or (), spec))
    if unknown:  # a typo would quietly make every case of that tool unsupported
        raise pytest.UsageError(f"wsconf: unknown tool(s) {', '.join(unknown)} in the implemented tools; "
                                f"the spec's tools are {', '.join(spec_tools(spec))}")
    config.stash[RUN] = run
    _add_wait_workers(config, spec, state.adapter, implemented)
    if _journal:
        _journal.header(run)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.section("wsconf run", sep="-")
        for line in header_lines(run):
            reporter.write_line(for_terminal(line))
        if WAIT_WORKERS in config.stash:
            asked = len(config.option.tx) - config.stash[WAIT_WORKERS]
            reporter.write_line(f"workers:        {asked} (-n), and {config.stash[WAIT_WORKERS]} more for the cases "
                                "that mostly wait, which start first (--wait-workers)")
    xml = config.stash.get(_xml_key(), None)
    if xml is not None:
        for key, value in run.items():
            xml.add_global_property(f"wsconf.{key}", json.dumps(value) if not isinstance(value, str) else value)
    if getattr(config.option, "numprocesses", None):
        state.close()  # the workers start their own; this one only said hello


def _xml_key():
    from _pytest.junitxml import xml_key
    return xml_key


RUN = pytest.StashKey[dict]()


def pytest_collection_finish(session):
    if RUN in session.config.stash:
        _say_selected(session.config, [i.nodeid for i in session.items if isinstance(i, CaseItem)])


def pytest_xdist_node_collection_finished(node, ids):
    config = node.config
    if RUN in config.stash and "selected" not in config.stash[RUN]:
        _say_selected(config, [i for i in ids if ".yaml::" in i or ".yml::" in i])


def _say_selected(config, ids: list[str]) -> None:
    made = sum(f"::{fresh.PREFIX}" in i for i in ids)
    config.stash[RUN]["selected"] = len(ids) - made
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"cases selected: {len(ids) - made}")
        if made:
            reporter.write_line(f"fresh cases:    {made}, generated for this run (seed {config.stash[SEED]}; "
                                "expected answers from the reference)")


def pytest_unconfigure(config):
    global _journal
    state = config.stash.get(STATE, None)
    if state:
        state.close()
    reaper.kill_leftovers()  # after the run, nothing the implementation started is left
    if _journal and not hasattr(config, "workerinput"):
        _finish_journal(config)
        _journal.close()
        _journal = None


def _spec_root_for(file_path: Path) -> Path | None:
    for parent in file_path.parents:
        if parent.name == "cases" and (parent.parent / "claims.yaml").exists():
            return parent.parent
    return None


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix in (".yaml", ".yml"):
        spec_root = _spec_root_for(file_path)
        if spec_root is not None:
            return CaseFile.from_parent(parent, path=file_path, spec_root=spec_root)
    return None


class CaseFile(pytest.File):
    def __init__(self, *, spec_root: Path, **kwargs):
        super().__init__(**kwargs)
        self.spec_root = spec_root

    def collect(self):
        state = self.config.stash[STATE]
        spec = state.load(self.spec_root)
        rel = str(self.path.relative_to(self.spec_root.parent))
        for err in spec.errors:
            if err.file == rel or (err.file.endswith("claims.yaml") and self.path.name == _first_case_file(spec)):
                yield SpecErrorItem.from_parent(self, name=f"spec-error:{err.file}:{err.line}", error=err)
        chosen = selection(self.config, spec)
        for case in spec.cases:
            if case.file == rel and chosen(case):
                yield CaseItem.from_parent(self, name=case.id, case=case)


def selection(config, spec):
    """Whether a case is selected by --wsconf-ids, -claim, -tag and -tool (-k is pytest's own)."""
    claims = set(config.getoption("wsconf_claim"))
    tags = set(config.getoption("wsconf_tag"))
    tools = set(config.getoption("wsconf_tool"))
    ids = config.stash[STATE].ids(spec)

    def chosen(case) -> bool:
        return ((ids is None or case.id in ids) and (not claims or bool(claims & set(case.claims)))
                and (not tags or bool(tags & set(case.tags)))
                and (not tools or case.tool in tools or bool(tools & set(case.families))))
    return chosen


def _first_case_file(spec) -> str:
    files = sorted({c.file for c in spec.cases})
    return Path(files[0]).name if files else ""


class SpecErrorItem(pytest.Item):
    def __init__(self, *, error, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def runtest(self):
        raise SpecProblem(str(self.error))

    def repr_failure(self, excinfo):
        return f"spec error: {self.error}"

    def reportinfo(self):
        return self.path, self.error.line - 1, f"spec error {self.error.file}:{self.error.line}"


class SpecProblem(Exception):
    pass


class CaseFailure(Exception):
    pass


class CaseItem(pytest.Item):
    def __init__(self, *, case, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        self.add_marker(pytest.mark.wsconf)
        for tag in case.tags:
            self.keywords[tag] = True
        self.keywords[case.tool] = True

    def runtest(self):
        state = self.config.stash[STATE]
        try:
            adapter = state.adapter
        except AdapterFault as exc:
            self._record(ERROR, str(exc), [])
            raise CaseFailure(str(exc)) from None
        reason = state.expected_failures().get(self.case.id)
        try:
            result = run_case(self.case, adapter, state.implemented()[0],
                              all_versions=self.config.getoption("wsconf_all_versions"))
        except Exception as exc:  # a bug of the harness is this case's error, recorded; the run goes on
            message = f"the harness failed running case {self.case.id}: {type(exc).__name__}: {exc}"
            self._record(ERROR, message, [])
            raise CaseFailure(message) from exc
        outcome = result.outcome
        if outcome == NOT_APPLICABLE:  # never counted as passed or failed, nor held to the expectations
            self._record(NOT_APPLICABLE, result.message, [], 0.0)
            pytest.skip(for_terminal(result.message))
        if outcome == UNSUPPORTED:
            self._record(UNSUPPORTED, result.message, result.steps, result.duration, missing=self._missing(adapter, state))
            pytest.skip(for_terminal(f"unsupported: {result.message}"))
        if reason is not None:
            if outcome == PASSED:
                self._record(XPASS, f"listed as an expected failure ({reason}) but passed", result.steps, result.duration,
                             result=result)
                raise CaseFailure(f"unexpected pass: {self.case.id} is listed in the expectations file of "
                                  f"{adapter.name} ({reason}) but passed; remove the entry")
            self._record(XFAIL, reason, result.steps, result.duration, detail=result.message, result=result)
            pytest.xfail(for_terminal(reason))
        self._record(outcome, result.message, result.steps, result.duration, result=result)
        if outcome != PASSED:
            raise CaseFailure(result.message)

    def _missing(self, adapter, state) -> dict:
        """What the implementation lacks for this case: capabilities it needs, tools it calls."""
        implemented = state.implemented()[0]
        return {"capabilities": sorted(set(self.case.needs) - expand(adapter.capabilities) - set(self.case.lenient)),
                "tools": [family_of(t) for t in self.case.tools_called if implemented is not None and t not in implemented]}

    def _record(self, outcome, message, steps, duration=0.0, detail="", missing=None, result=None):
        adapter = self.config.stash[STATE]._adapter
        record = {"id": self.case.id, "tool": self.case.tool, "tools": list(self.case.families),
                  "claims": self.case.claims,
                  "implementation": getattr(adapter, "name", None), "version": getattr(adapter, "version", None),
                  "outcome": outcome, "message": message, "detail": detail, "duration": round(duration, 4),
                  "steps": steps}
        if result is not None:
            record.update(findings_fields(result))
        if missing is not None:
            record["missing"] = missing
        # ASCII escapes: results may hold lone surrogates, which cannot cross to xdist workers raw
        self.user_properties.append(("wsconf", json.dumps(record, default=str)))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, pytest.xfail.Exception):
            # pytest reports an xfail by its reason; the traceback super() would build (half a second
            # per case: it reads the source of every frame) is never shown.
            return str(excinfo.value)
        if isinstance(excinfo.value, CaseFailure):
            claims = ", ".join(self.case.claims)
            # A lone surrogate (half an emoji) cannot be encoded for the terminal or an xdist worker.
            return for_terminal(f"{self.case.id} ({self.case.file}:{self.case.line}) checks {claims}\n"
                                f"{excinfo.value}")
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.case.line - 1, self.case.id


class FreshItem(CaseItem):
    """A fresh case (session/fresh.py): made from the run's seed when it runs, its expected answers the
    reference's. A difference is recorded as failed but judged with the tool's other fresh cases
    (the summary), so it is shown as an expected failure here."""

    def __init__(self, *, tool: str, n: int, claims: list[str], **kwargs):
        pytest.Item.__init__(self, **kwargs)
        self.tool, self.n, self.claims = tool, n, claims
        self.case = fresh.draft(tool, n, self.config.stash[SEED], claims)
        self.add_marker(pytest.mark.wsconf)
        self.keywords["fresh"] = True

    def runtest(self):
        state = self.config.stash[STATE]
        try:
            adapter = state.adapter
            if state.reference is None:
                from ..adapters.reference import ReferenceAdapter
                state.reference = ReferenceAdapter(self.config.getoption("wsconf_timeout"))
            self.case = fresh.expected_by_reference(self.case, state.reference)
            result = run_case(self.case, adapter, state.implemented()[0],
                              all_versions=self.config.getoption("wsconf_all_versions"))
        except Exception as exc:  # recorded as this case's error, like any other
            message = f"the harness failed running fresh case {self.case.id}: {type(exc).__name__}: {exc}"
            self._record(ERROR, message, [])
            raise CaseFailure(message) from exc
        self._record(result.outcome, result.message, result.steps, result.duration, result=result)
        if result.outcome in (NOT_APPLICABLE, UNSUPPORTED):
            pytest.skip(for_terminal(result.message))
        if result.outcome != PASSED:
            pytest.xfail(for_terminal(f"a fresh input answered otherwise than the reference (judged per tool in "
                                      f"the summary): {result.message.splitlines()[0] if result.message else ''}"))

    def _record(self, outcome, message, steps, duration=0.0, detail="", missing=None, result=None):
        super()._record(outcome, message, steps, duration, detail, missing=missing, result=result)
        key, value = self.user_properties.pop()
        record = json.loads(value)
        record.update(fresh=True, seed=self.config.stash[SEED], case=self.case.raw)
        self.user_properties.append((key, json.dumps(record, default=str)))

    def reportinfo(self):
        return self.path, None, self.case.id


# -- results and the summary (on the controller when running under xdist) -----------------------

def pytest_runtest_logreport(report):
    records = [json.loads(value) for key, value in report.user_properties if key == "wsconf"]
    if not records and report.when == "???" and report.failed:  # xdist: the worker running it died
        records = [_died(report)]
    elif report.when != "call" and not (report.when == "setup" and report.skipped):
        return
    for record in records:
        _results.append(record)
        if _journal:
            _journal.add(record, report.nodeid)


_results: list[dict] = []
_CONFIG: dict = {}   # the controller's config, for a record made where no item is at hand
_LEFT: list[str] = []  # what the implementation left running when it shut down, here and on the workers


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """xdist: a worker ended; what its implementation left running comes with it."""
    _LEFT.extend(getattr(node, "workeroutput", {}).get("wsconf_left_running", []))


def _died(report) -> dict:
    """The record of a case whose worker died while running it: an error, with what xdist saw."""
    case_id = report.nodeid.rpartition("::")[2]
    config = _CONFIG.get("config")
    state = config.stash[STATE] if config else None
    case = next((c for c in (state.spec.cases if state and state.spec else []) if c.id == case_id), None)
    run = config.stash.get(RUN, {}) if config else {}
    said = str(report.longrepr or "").strip().splitlines()
    return {"id": case_id, "tool": case.tool if case else "?", "tools": list(case.families) if case else [],
            "claims": case.claims if case else [], "implementation": run.get("implementation"),
            "version": run.get("version"), "outcome": ERROR, "duration": 0.0, "steps": [], "detail": "",
            "message": f"the worker running case {case_id} died before recording it: "
                       f"{said[0] if said else 'no reason given'}"}


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session, exitstatus):
    """Before anything is written at the end (the JUnit XML): the implementation is stopped, with
    every process it started, on the workers and here, so nothing of it can change what follows.
    Then, here, why the run fails beyond its cases: stale expectations, nothing tested, files
    changed outside the run (watch.py)."""
    config = session.config
    state = config.stash.get(STATE, None)
    if state:
        state.close()
        _LEFT.extend(getattr(state._adapter, "left_running", None) or [])
    reaper.kill_leftovers()
    if hasattr(config, "workerinput"):
        config.workeroutput["wsconf_left_running"] = list(_LEFT)  # to the controller (pytest_testnodedown)
        return
    if not _spec_roots_in_args(config):
        return
    # from what it said of itself at hello: it is not started again
    problems = _expectation_problems(session)
    if problems:
        config.stash[STALE] = problems
    reasons = list(problems)
    fixed_records = [r for r in _results if not r.get("fresh")]
    empty = nothing_tested(fixed_records, config.stash.get(RUN, None))
    if empty:
        reasons.append(f"nothing was tested: {empty}")
    reasons += [f"{tool}: answers match the spec but not fresh inputs" for tool, _, fails in _fresh_verdicts(config)
                if fails]
    reasons += [f"changed outside the run while it ran: {path}" for path in _outside_changes(config)]
    if _LEFT:
        reasons.append(f"the implementation left {len(_LEFT)} process(es) running when it shut down (killed): "
                       + ", ".join(_LEFT))
    config.stash[FAILS] = reasons
    scheduling.remember(config.getoption("wsconf_adapter"), _results)
    if reasons:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _fresh_verdicts(config) -> list[tuple[str, str, bool]]:
    return fresh.verdicts(_results, config.stash[STATE].fresh_expected)


STALE = pytest.StashKey[list]()
FAILS = pytest.StashKey[list]()
WATCHED = pytest.StashKey[tuple]()


def _watch_outside(config) -> None:
    """What the run depends on outside its folders, before anything starts (watch.py)."""
    _CONFIG["config"] = config
    spec_roots = _spec_roots_in_args(config)
    places = watch.watched_places(spec_roots, config.getoption("wsconf_expectations") or expectations.EXPECTATIONS_DIR)
    config.stash[WATCHED] = (places, watch.snapshot(places))


def _outside_changes(config) -> list[str]:
    places, before = config.stash.get(WATCHED, ((), {}))
    return watch.changes(before, watch.snapshot(places)) if places else []


def _finish_journal(config) -> None:
    """The results' last line: the counts (the summary's, from the same records), why the run
    failed beyond its cases, and the sha256 of everything before it."""
    counts = dict(Counter(record["outcome"] for record in _results))
    end = {"counts": counts, "cases": len(_results), "failed_because": config.stash.get(FAILS, [])}
    said = _journal.finish(end)
    if said:
        print(f"wsconf: {said}", file=sys.stderr)


def _expectation_problems(session) -> list[str]:
    """What makes the expectations file untrue: entries naming cases that no longer exist, and reasons
    still the draft's REVIEW: placeholder (a run must not go green on reasons nobody wrote)."""
    state = session.config.stash[STATE]
    if state.spec is None or state._adapter is None or session.config.getoption("wsconf_no_expectations"):
        return []
    listed = state.expected_failures()
    known = {c.id for c in state.spec.cases}
    where = state.expectations_file()
    return ([f"stale expectation: {case_id} is listed but no such case exists" for case_id in sorted(set(listed) - known)]
            + [f"unreviewed expectation: {case_id} in {where}: its reason is still a draft ({listed[case_id]!r}); "
               "write what the implementation does and why" for case_id in expectations.unreviewed(listed)])


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if hasattr(config, "workerinput") or not _results:
        return
    tr = terminalreporter
    tr.section("wsconf summary")
    implemented = config.stash[RUN].get("tools") if RUN in config.stash else None
    fixed_records = [r for r in _results if not r.get("fresh")]
    for line in summary_lines(fixed_records, implemented, config.getoption("wsconf_all_tools")):
        tr.write_line(line)
    _write_fresh(tr, config)
    problems = config.stash.get(STALE, [])
    for problem in problems:
        tr.write_line(for_terminal(problem), red=True)
    for reason in config.stash.get(FAILS, []):
        if reason not in problems:
            tr.write_line(for_terminal(f"the run fails: {reason}"), red=True)
    lenient = Counter(c for record in _results for c in record.get("refusals_only") or [])
    for capability, count in sorted(lenient.items()):
        tr.write_line(f"{count} case(s) ran without {capability}: each step expecting a thrown error was judged "
                      "as a refusal only (it throws; the root as the upstream left it)")
    _write_findings(tr, config)


def _write_fresh(tr, config) -> None:
    """A line per tool for its fresh cases, beside its fixed cases' rate."""
    lines = _fresh_verdicts(config)
    if lines:
        tr.write_line(f"fresh inputs (generated for this run, seed {config.stash.get(SEED, None)}; expected: the reference's answers):")
        for _, line, fails in lines:
            tr.write_line(for_terminal("  " + line), red=fails)


def _write_findings(tr, config) -> None:
    """The worst groups of what did not pass (findings.py), when something did not."""
    run = config.stash.get(RUN, None)
    lines = terminal_lines(_results, run)
    if lines:
        tr.section("wsconf findings")
        for line in lines:
            tr.write_line(for_terminal(line))


__all__ = ["visible"]
