"""Running one case against one adapter, and judging what came back."""
from __future__ import annotations

import json
import os
import time
import traceback
from dataclasses import dataclass, field
from functools import partial

from ..adapters.base import Adapter, AdapterFault, OpenError
from ..isolation import reaper, sizes
from ..isolation.leaks import leaks, reach
from ..isolation.mounts import detach_all, mounts_under
from ..isolation.tree import CaseTree, content_bytes, ended_cases, make_tree, remove_tree, run_dir
from ..spec.capability_aliases import expand
from ..spec.loader import Case
from ..spec.placeholders import PATTERNS, TOKEN, captures, substitute
from ..spec.versions import implementation_version, satisfies
from .harm import classify
from .options import unhonoured
from .root_states import RootStates
from .verdict import check_after, expand_strings, expected_string, judge
from .waits import run_wait

PASSED, FAILED, UNSUPPORTED, ERROR = "passed", "failed", "unsupported", "error"
NOT_APPLICABLE = "not_applicable"  # the case's `versions` exclude the implementation's release


@dataclass
class CaseResult:
    case_id: str
    outcome: str
    message: str = ""
    duration: float = 0.0
    steps: list[dict] = field(default_factory=list)   # per step: id, call, expected, actual
    captured: dict = field(default_factory=dict)      # what pattern placeholders matched ({{pid}})
    divergences: list[dict] = field(default_factory=list)  # every difference, in order (harm.py says what each means)
    not_judged: list[dict] = field(default_factory=list)   # steps not run: they needed a value a failed step gives
    observed: dict = field(default_factory=dict)      # the root's changes: {"open": change, "steps": {id: change}}
    harm: str | None = None                           # the worst harm of the divergences (harm.py)
    lenient: list[str] = field(default_factory=list)   # capabilities lacked: expected errors judged as refusals only
    signature: str | None = None                      # the root-cause group it belongs to (harm.py)

    @property
    def ok(self) -> bool:
        return self.outcome in (PASSED, UNSUPPORTED, NOT_APPLICABLE)


class StepFailure(Exception):
    """A difference that ends the case where it happens: opening the workspace went otherwise, or a
    step's `captures` found nothing to capture. kind: as a divergence's (open, leak, capture)."""

    def __init__(self, message: str, kind: str = "open"):
        super().__init__(message)
        self.kind = kind


def not_applicable(case: Case, adapter: Adapter) -> str | None:
    """Why the case does not apply to this implementation's release (its `versions`), else None."""
    version = implementation_version(adapter) if case.versions else None
    if version is None or satisfies(version, case.versions):
        return None
    return f"not applicable to {adapter.name} {adapter.version} (the case holds for {case.versions})"


def not_run(case: Case, adapter: Adapter, implemented: frozenset[str] | None = None,
            all_versions: bool = False) -> CaseResult | None:
    """The result of a case the implementation is not asked to run (not applicable to its release,
    or needing what it lacks), else None. Arguments as run_case's."""
    reason = None if all_versions else not_applicable(case, adapter)
    if reason:
        return CaseResult(case.id, NOT_APPLICABLE, reason)
    missing = sorted(set(case.needs) - expand(adapter.capabilities) - set(case.lenient))
    if missing:
        return CaseResult(case.id, UNSUPPORTED, f"{adapter.name} lacks: {', '.join(missing)}")
    unmapped = unhonoured(case.workspace, getattr(adapter, "filesystem_options", None))
    if unmapped:
        return CaseResult(case.id, UNSUPPORTED, f"{adapter.name} cannot honour the filesystem option "
                                                f"{', '.join(unmapped)}")
    implemented = adapter.tools if implemented is None else implemented
    lacking = [t for t in case.tools_called if implemented is not None and t not in implemented]
    if lacking:
        return CaseResult(case.id, UNSUPPORTED, f"{adapter.name} does not implement {', '.join(lacking)}")
    return None


def run_case(case: Case, adapter: Adapter, implemented: frozenset[str] | None = None,
             all_versions: bool = False) -> CaseResult:
    """implemented: the tool ids the implementation has (None: all); defaults to what it declared.
    all_versions: run the case whatever its `versions` say (how the release matrix measures them)."""
    skipped = not_run(case, adapter, implemented, all_versions)
    if skipped is not None:
        return skipped
    capabilities = expand(adapter.capabilities)
    started = time.monotonic()
    reaper.become_subreaper()  # orphans of the implementation come back here, to be found
    since = reaper.mark()
    tree = make_tree()
    tree.runtime_dir = getattr(adapter, "runtime_dir", None)
    result = CaseResult(case.id, PASSED)
    result.lenient = sorted(set(case.lenient) - capabilities)
    judging = partial(judge, refusals_only=bool(result.lenient))
    session = None
    try:
        workspace = substitute(case.workspace or {}, tree.values)
        home = workspace.pop("home", str(tree.home))
        tree.home = type(tree.root)(home)
        tree.reachable = reach(workspace, tree.root, tree.home)
        tree.lay_out(case.setup)
        before = tree.fingerprint_outside()
        states = RootStates(case, tree, capabilities)
        call = "open"
        try:
            session = _open(case, adapter, tree, home, workspace, result, judging)
            _answered_beside(adapter, tree, result, "open")
            if session is not None:
                _diverged(result, None, "open", [("state", d) for d in states.after(None)])
            step_started = None
            for step in case.steps if session is not None else []:
                tree.previous_step_started_ms, step_started = step_started, time.time_ns() // 1_000_000
                call = _describe_call(step)
                waiting_for = _unresolved(step, tree) if result.divergences else []
                if waiting_for:
                    result.not_judged.append({"step": step["id"], "call": call, "reason": (
                        f"needs {', '.join('{{' + n + '}}' for n in waiting_for)}, which an earlier step that "
                        "differed did not give")})
                    states.skip(step["id"])
                    continue
                problems = _run_step(case, step, session, tree, result, capabilities, judging)
                problems += [("state", d) for d in states.after(step["id"])]
                _diverged(result, step, call, problems)
                _answered_beside(adapter, tree, result, call)
        except AdapterFault as exc:
            _diverged(result, None, call, [("fault", f"adapter fault in case {case.id}, call {call}: {exc}")])
        except StepFailure as exc:
            _diverged(result, None, call, [(exc.kind, str(exc))])
        except Exception as exc:  # an answer the judging could not take: this case's error, the checks go on
            _diverged(result, None, call, [("fault", f"adapter fault in case {case.id}, call {call}: "
                                                     f"its answer could not be judged: {_raised(exc)}")])
        except BaseException:
            session = None  # interrupted (Ctrl-C): no close on a process that may be stuck
            raise
        finally:
            if session is not None:
                try:
                    session.close()
                except AdapterFault as exc:
                    _diverged(result, None, "close", [("fault", f"adapter fault in case {case.id}, call close: {exc}")])
                except Exception as exc:
                    _diverged(result, None, "close", [("fault", f"adapter fault in case {case.id}, call close: "
                                                               f"{_raised(exc)}")])
        _answered_beside(adapter, tree, result, "close")
        result.observed = states.observed
        _check_around(case, adapter, tree, result, since, before)
        _conclude(case, result)
    finally:
        tree.remove(case.id)
        result.captured = dict(tree.captured)
        result.duration = time.monotonic() - started
    return result


def _check_around(case: Case, adapter: Adapter, tree: CaseTree, result: CaseResult, since, before: dict) -> None:
    """After the close, whatever happened in it: the processes it left, the mounts it made, what it
    changed outside the root. One of these checks failing does not skip the others."""
    checks = (lambda: [("leftover", p) for p in _leftovers(case, adapter, since)],
              lambda: [("outside", p) for p in _mounts(tree, adapter)],  # before anything is read or removed
              lambda: _outside(case, tree, before))
    for check in checks:
        try:
            problems = check()
        except Exception as exc:
            problems = [("fault", f"the harness could not check case {case.id} after its close: {_raised(exc)}")]
        _diverged(result, None, "close", problems)


def _outside(case: Case, tree: CaseTree, before: dict) -> list[tuple[str, str]]:
    after = tree.fingerprint_outside()
    escaped = _outside_changes(before, after, case.touches_outside and tree.outside)
    if not escaped:
        return []
    late = ended_cases(escaped)
    problems = [("outside", "touched files outside the workspace: " + ", ".join(escaped) + (
        f" (in the folder of {', '.join(late)}, which had ended: an operation of that case landed late)"
        if late else ""))]
    return problems + [("leftover", p) for p in _undo_created(before, after, tree.base)]


def _answered_beside(adapter: Adapter, tree: CaseTree, result: CaseResult, call: str) -> None:
    """A token in what a protocol answer carried beside its result (another member of the response,
    a fault's message) leaked as much as one in the result."""
    take = getattr(adapter, "take_extras", None)
    extras = take() if take else []
    if extras:
        leaked = leaks({"response": extras}, tree.tokens, tree.reachable)
        if leaked:
            _diverged(result, None, call, [("leak", f"{call} " + "; ".join(leaked))])


def _raised(exc: BaseException) -> str:
    """An exception in one line, with where it was raised (the innermost frame)."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _diverged(result: CaseResult, step: dict | None, call: str, problems: list[tuple[str, object]]) -> None:
    """Record differences: kind is output, leak, after, state, open, capture, fault, leftover or outside;
    a state difference comes as root_states' dict, everything else as its message."""
    for kind, problem in problems:
        entry = {"step": step["id"] if step else call, "call": call, "kind": kind}
        if kind == "state":
            entry.update(state=problem, text=f"step {entry['step']!r} ({call}): the root is not as the upstream "
                                              f"left it: {problem['text']}" if step else
                                              f"opening the workspace: the root is not as the upstream left it: "
                                              f"{problem['text']}")
        else:
            entry["text"] = problem
        result.divergences.append(entry)


ALSO_SHOWN = 12  # later differences named in a failed case's message (all are in the results)


def _conclude(case: Case, result: CaseResult) -> None:
    """The outcome and message from the divergences: failed with the first difference in full (as a
    case stopping there would have said it) and the later ones a line each; an adapter fault
    alone is an error. Then each divergence's harm and the case's group (harm.py)."""
    if not result.divergences:
        return
    around = [d["text"] for d in result.divergences if d["kind"] in ("outside", "leftover")]
    steps = [d for d in result.divergences if d["kind"] not in ("outside", "leftover")]
    result.outcome = ERROR if all(d["kind"] == "fault" for d in result.divergences) else FAILED
    lines = around + ([steps[0]["text"]] if steps else [])
    later = [d for d in steps[1:]]
    if later:
        lines.append(f"\nthen {len(later)} more difference(s):")
        lines += ["  " + d["text"].split("\n", 1)[0][:300] for d in later[:ALSO_SHOWN]]
        if len(later) > ALSO_SHOWN:
            lines.append(f"  ... and {len(later) - ALSO_SHOWN} more (the results file has them all)")
    for skipped in result.not_judged:
        lines.append(f"not judged: step {skipped['step']!r} ({skipped['call']}): {skipped['reason']}")
    result.message = "\n".join(lines)
    classify(case, result)


def _unresolved(step: dict, tree: CaseTree) -> list[str]:
    """The pattern placeholders ({{pid}}) a step's inputs still hold once the run's values and the
    captured ones are put in: values an earlier step was to capture, but it differed."""
    inputs = [step.get(k) for k in ("args", "agent", "group", "host")]
    inputs += [c.get("args") for c in step.get("concurrent", [])]
    if "wait" in step:  # what it polls for, not what the polled call is expected to answer
        until = step["wait"]["until"]
        inputs.append({k: ({kk: vv for kk, vv in v.items() if kk != "expect"} if isinstance(v, dict) else v)
                       for k, v in until.items()})
    filled = json.dumps(substitute(inputs, {**tree.values, **tree.captured}))
    return sorted({m.group(1) for m in TOKEN.finditer(filled) if m.group(1) in PATTERNS})


def _open(case: Case, adapter: Adapter, tree: CaseTree, home: str, workspace: dict, result: CaseResult, judging=judge):
    """Open the case's workspace; None when it threw as the case expects (`open_error`)."""
    try:
        session = adapter.open(str(tree.root), str(tree.outside), home, workspace)
    except OpenError as exc:
        if case.open_error is None:
            raise StepFailure(f"opening the workspace threw: {exc.result.get('name')}: "
                              f"{exc.result.get('message')}") from None
        record = _keep(case, {"id": "open", "call": "open", "args": workspace,
                              "expected": case.open_error, "actual": exc.result}, result)
        leaked = leaks(exc.result, tree.tokens, tree.reachable)
        if leaked:
            raise StepFailure("opening the workspace " + "; ".join(leaked), "leak") from None
        problem = judging(case.open_error, exc.result, tree)
        if problem:
            raise StepFailure(f"opening the workspace: {problem}{_whole(record)}") from None
        return None
    if case.open_error is not None:
        session.close()
        raise StepFailure(f"opening the workspace should have thrown {case.open_error['error']!r}, but it succeeded")
    return session


def _leftovers(case: Case, adapter: Adapter, since: reaper.Mark) -> list[str]:
    """Processes started during the case that outlive its close: killed, and a failure unless
    the case names them in `leaves_running` (then their absence is one)."""
    own = adapter.own_pids()
    left, stuck = reaper.sweep(since, own)
    expected = set(case.leaves_running)
    problems = []
    unexpected = [p for p in left if p.command.split(" ")[0].rsplit("/", 1)[-1] not in expected]
    if unexpected:
        problems.append(reaper.describe(unexpected))
    seen = {p.command.split(" ")[0].rsplit("/", 1)[-1] for p in left}
    for name in sorted(expected - seen):
        problems.append(f"expected {name} to be left running after close (leaves_running), but it was not")
    if stuck:
        problems.append("could not kill " + ", ".join(map(str, stuck)))
    return problems


def _mounts(tree: CaseTree, adapter: Adapter) -> list[str]:
    """A mount the implementation made in the case's folder: a failure. One the harness can see
    (an unconfined implementation, as root) is detached at once, so nothing outside is read or
    removed through it; one in a confined implementation's own mount namespace is only reported."""
    found, stuck = detach_all(run_dir())  # the case's folder, and the HOME and TMPDIR it was given
    problems = [f"mounted {source} at {point} in the case's folder: detached before anything there was removed"
                for point, source in reversed(found)] + stuck
    seen = set(found)
    for pid in sorted(adapter.own_pids()):
        for point, source in reversed(mounts_under(tree.base, pid)):
            if (point, source) not in seen:
                seen.add((point, source))
                problems.append(f"mounted {source} at {point} in the case's folder, in its own mount namespace "
                                "(the harness's view of the folder was not touched)")
    return problems


def _undo_created(before: dict, after: dict, case_folder) -> list[str]:
    """Remove what a case made in the run folder outside its own folder (the implementation's
    HOME and TMPDIR): left there, the same leak by a later case would change nothing and pass
    unseen, so which case fails would depend on the order. The case's own folder goes anyway."""
    problems = []
    created = sorted(path for path in set(after) - set(before)
                     if not (path + "/").startswith(f"{case_folder}/"))
    for path in created:
        if os.path.dirname(path) in created:
            continue  # inside a created folder: goes with it
        remove_tree(path)
        if os.path.lexists(path):
            problems.append(f"could not remove {path}, left outside the workspace")
    return problems


def _describe_call(step: dict) -> str:
    for key, shown in (("tool", "{}"), ("fs", "fs.{}"), ("workspace", "workspace.{}"), ("tool_info", "tool_info {}")):
        if key in step:
            return f"{step['id']} ({shown.format(step[key])})"
    return step["id"]


def tool_info(tools: list[dict], name: str) -> dict | None:
    """One tool as the model sees it, with the description's size measured the page's way."""
    from .measure import description_size
    for tool in tools:
        if tool.get("name") == name:
            return {**tool, "size": description_size(tool.get("description") or "")}
    return None


def _outside_changes(before: dict, after: dict, allowed=None) -> list[str]:
    """What changed outside the root, but under `allowed` (the outside folder of a case that
    declares touches_outside)."""
    changed = []
    for path in sorted(set(before) | set(after)):
        if before.get(path) != after.get(path):
            if allowed and (path + "/").startswith(f"{allowed}/") and path != str(allowed):
                continue
            changed.append(path)
    return changed


def _run_step(case: Case, step: dict, session, tree: CaseTree, result: CaseResult,
              capabilities=frozenset(), judging=judge) -> list[tuple[str, str]]:
    """Run one step and judge it: its problems as (kind, message), kind one of output, leak, after."""
    values = tree.values
    if "host" in step or "wait" in step:
        if "host" in step:
            _host_action(substitute(step["host"], values), tree)
        else:
            run_wait(_wait_with_values(step["wait"], {**values, **tree.captured}), session, tree, capabilities, judging)
        problem = check_after(step["after"], tree) if "after" in step else None
        return [("after", f"step {step['id']!r} afterwards: {problem}")] if problem else []
    if "concurrent" in step:
        return _run_concurrent(step, session, tree, result, judging)
    # Args may use what earlier results matched ({{pid}} from a background start), and generated
    # content ({$string: [...]}).
    args = expand_strings(substitute(step.get("args", {} if "tool" in step or "needs_approval" in step else []),
                                     {**values, **tree.captured}))
    if "tool" in step:
        options = {k: v for k, v in (("writer", "chunks" in step["expect"] or None),
                                     ("agentContext", step.get("agent_context")),
                                     ("requestContext", step.get("request_context")),
                                     ("abortAfterMs", step.get("abort_after_ms")),
                                     ("tracing", step.get("tracing_field", "tracing") if "spans" in step["expect"]
                                      else None),
                                     ("errorDetails", True if "error_details" in step["expect"] else None))
                   if v is not None}
        actual = session.call(step["tool"], args, options) if options else session.call(step["tool"], args)
    elif "fs" in step:
        actual = (session.fs(step["fs"], args, {"errorDetails": True}) if "error_details" in step["expect"]
                  else session.fs(step["fs"], args))
    elif "workspace" in step:
        # capability instance_identity: the answer as the label of the object it is
        options = {k: v for k, v in (("identity", True if step.get("identity") else None),
                                     ("errorDetails", True if "error_details" in step["expect"] else None))
                   if v is not None}
        actual = (session.workspace(step["workspace"], args, options) if options
                  else session.workspace(step["workspace"], args))
    elif "needs_approval" in step:
        actual = session.needs_approval(step["needs_approval"], args)
    elif "retool" in step:
        actual = session.retool()
    elif "hook_log" in step:
        actual = {"kind": "value", "value": session.hook_log(), "model": None}
    elif "agent" in step:  # capability agent_loop
        actual = session.agent(substitute(step["agent"], {**values, **tree.captured}))
    elif "group" in step:  # capability concurrent_calls: the Results, in order, as one value
        calls = substitute(step["group"], {**values, **tree.captured})
        actual = {"kind": "value", "value": session.group(calls), "model": None}
    elif "tool_info" in step:
        actual = {"kind": "value", "value": tool_info(session.tools(), step["tool_info"]), "model": None}
    else:
        actual = {"kind": "value", "value": session.tools(), "model": None}
    record = _keep(case, {"id": step["id"], "call": _describe_call(step), "args": args,
                          "expected": step["expect"], "actual": actual}, result)
    leaked = leaks(actual, tree.tokens, tree.reachable)
    if leaked:
        return [("leak", f"step {step['id']!r} ({_describe_call(step)}) " + "; ".join(leaked))]
    problems = []
    problem = judging(step["expect"], actual, tree)
    if problem:
        problems.append(("output", f"step {step['id']!r} ({_describe_call(step)}): {problem}{_whole(record)}"))
    else:  # a value that differs captures nothing; a later step needing it is not judged
        tree.captured.update(_captured(step["expect"], actual, values))
        tree.captured.update(_captured_parts(step, actual))
    if "after" in step:
        problem = check_after(step["after"], tree)
        if problem:
            problems.append(("after", f"step {step['id']!r} afterwards: {problem}"))
    return problems


def _keep(case: Case, record: dict, result: CaseResult) -> dict:
    """The step as the results file keeps it: a huge actual truncated, the whole one in a file."""
    record = sizes.kept_step(record, f"{case.id}.{record['id']}")
    result.steps.append(record)
    return record


def _whole(record: dict) -> str:
    if not record.get("actual_truncated"):
        return ""
    where = f"is in {record['actual_file']}" if "actual_file" in record else record["actual_not_kept"]
    return f"\n(the whole actual, {record['actual_size']:,} bytes of JSON, sha256 {record['actual_sha256']}, {where})"


def _run_concurrent(step: dict, session, tree: CaseTree, result: CaseResult, judging=judge) -> list[tuple[str, str]]:
    """Capability concurrent_calls: the calls start together, in order; each Result is judged."""
    calls = [{"tool": c["tool"], "args": substitute(c.get("args", {}), {**tree.values, **tree.captured})}
             for c in step["concurrent"]]
    actuals = session.calls(calls)
    if not isinstance(actuals, list) or len(actuals) != len(calls):
        return [("output", f"step {step['id']!r}: expected {len(calls)} results, got {actuals!r}")]
    problems = []
    for i, (call, spec_call, actual) in enumerate(zip(calls, step["concurrent"], actuals)):
        result.steps.append({"id": f"{step['id']}[{i}]", "call": f"{step['id']}[{i}] ({call['tool']})",
                             "args": call["args"], "expected": spec_call["expect"], "actual": actual})
        problem = judging(spec_call["expect"], actual, tree)
        if problem:
            problems.append(("output", f"step {step['id']!r}, call {i} ({call['tool']}): {problem}"))
    if "after" in step:
        problem = check_after(step["after"], tree)
        if problem:
            problems.append(("after", f"step {step['id']!r} afterwards: {problem}"))
    return problems


def _host_action(action: dict, tree: CaseTree) -> None:
    for rel, content in (action.get("write") or {}).items():
        path = tree.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content_bytes(content))
        tree.hand_over(*[p for p in (path, *path.parents) if p.is_relative_to(tree.root) and p != tree.root])
    for rel in action.get("touch", []):
        path = tree.root / rel
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    for rel in action.get("remove", []):
        (tree.root / rel).unlink()
    if action.get("sleep_ms"):
        time.sleep(action["sleep_ms"] / 1000)


def _captured(expect: dict, actual: dict, values: dict) -> dict:
    """What the pattern placeholders of a matched text or error expectation stood for."""
    if "text" in expect:
        if expected_string(expect["text"]) is not None:
            return {}
        return captures(expect["text"], actual.get("value"), values) or {}
    if "error" in expect:
        return captures(expect["error"], actual.get("message"), values) or {}
    return {}


def _captured_parts(step: dict, actual: dict) -> dict:
    """A step's `captures`: the part of the result value at each path, remembered as the named
    placeholder (a number as its digits), for a later step's args (a host-dependent number in a
    value, such as getInfo's memoryMB, then checked by a command). A path beginning with "$chunks"
    starts from the chunks the call wrote to its writer instead (a duration in a data-sandbox-exit chunk)."""
    found = {}
    for name, path in (step.get("captures") or {}).items():
        part, keys = (actual.get("chunks"), path[1:]) if path[:1] == ["$chunks"] else (actual.get("value"), path)
        for key in keys:
            try:
                part = part[key]
            except (KeyError, IndexError, TypeError):
                raise StepFailure(f"step {step['id']!r}: captures {name}: the result has nothing at {path!r}",
                                  "capture") from None
        if isinstance(part, bool) or not isinstance(part, (str, int, float)):
            raise StepFailure(f"step {step['id']!r}: captures {name}: {path!r} holds {part!r}, not a number or string",
                              "capture")
        found[name] = part if isinstance(part, str) else json.dumps(part)
    return found


def _wait_with_values(wait: dict, values: dict) -> dict:
    """The wait with the run's values put in, except in a polled call's `expect`: there, as in a
    step's, `{{int}}` and the like stay patterns (a captured `int` goes into the call's args only)."""
    filled = substitute(wait, values)
    call = wait["until"].get("call") if isinstance(wait.get("until"), dict) else None
    if isinstance(call, dict) and "expect" in call:
        filled["until"]["call"]["expect"] = call["expect"]
    return filled

