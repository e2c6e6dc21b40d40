"""Running one case against one adapter, and judging what came back."""
from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass, field

from ..adapters.base import Adapter, AdapterFault, OpenError
from ..isolation import reaper, sizes
from ..isolation.leaks import leaks, reach
from ..isolation.tree import CaseTree, content_bytes, ended_cases, make_tree
from ..spec.loader import Case
from ..spec.placeholders import captures, substitute
from ..spec.versions import implementation_version, satisfies
from .options import unhonoured
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

    @property
    def ok(self) -> bool:
        return self.outcome in (PASSED, UNSUPPORTED, NOT_APPLICABLE)


class StepFailure(Exception):
    pass


def not_applicable(case: Case, adapter: Adapter) -> str | None:
    """Why the case does not apply to this implementation's release (its `versions`), else None."""
    version = implementation_version(adapter) if case.versions else None
    if version is None or satisfies(version, case.versions):
        return None
    return f"not applicable to {adapter.name} {adapter.version} (the case holds for {case.versions})"


def run_case(case: Case, adapter: Adapter, implemented: frozenset[str] | None = None,
             all_versions: bool = False) -> CaseResult:
    """implemented: the tool ids the implementation has (None: all); defaults to what it declared.
    all_versions: run the case whatever its `versions` say (how the release matrix measures them)."""
    reason = None if all_versions else not_applicable(case, adapter)
    if reason:
        return CaseResult(case.id, NOT_APPLICABLE, reason)
    missing = sorted(set(case.needs) - set(adapter.capabilities))
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
    started = time.monotonic()
    reaper.become_subreaper()  # orphans of the implementation come back here, to be found
    since = reaper.mark()
    tree = make_tree()
    tree.runtime_dir = getattr(adapter, "runtime_dir", None)
    result = CaseResult(case.id, PASSED)
    session = None
    try:
        workspace = substitute(case.workspace or {}, tree.values)
        home = workspace.pop("home", str(tree.home))
        tree.home = type(tree.root)(home)
        tree.reachable = reach(workspace, tree.root, tree.home)
        tree.lay_out(case.setup)
        before = tree.fingerprint_outside()
        call = "open"
        try:
            session = _open(case, adapter, tree, home, workspace, result)
            for step in case.steps if session is not None else []:
                call = _describe_call(step)
                _run_step(case, step, session, tree, result, adapter.capabilities)
        except AdapterFault as exc:
            result.outcome = ERROR
            result.message = f"adapter fault in case {case.id}, call {call}: {exc}"
        except StepFailure as exc:
            result.outcome = FAILED
            result.message = str(exc)
        except BaseException:
            session = None  # interrupted (Ctrl-C): no close on a process that may be stuck
            raise
        finally:
            if session is not None:
                try:
                    session.close()
                except AdapterFault as exc:
                    if result.outcome == PASSED:
                        result.outcome, result.message = ERROR, f"adapter fault in case {case.id}, call close: {exc}"
        problems = _leftovers(case, adapter, since)
        after = tree.fingerprint_outside()
        escaped = _outside_changes(before, after, case.touches_outside and tree.outside)
        if escaped:
            late = ended_cases(escaped)
            problems.insert(0, "touched files outside the workspace: " + ", ".join(escaped) + (
                f" (in the folder of {', '.join(late)}, which had ended: an operation of that case landed late)"
                if late else ""))
            problems.extend(_undo_created(before, after, tree.base))
        if problems:
            result.outcome = FAILED
            result.message = "\n".join(problems + ([result.message] if result.message else []))
    finally:
        tree.remove(case.id)
        result.captured = dict(tree.captured)
        result.duration = time.monotonic() - started
    return result


def _open(case: Case, adapter: Adapter, tree: CaseTree, home: str, workspace: dict, result: CaseResult):
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
            raise StepFailure("opening the workspace " + "; ".join(leaked)) from None
        problem = judge(case.open_error, exc.result, tree)
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
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
        except OSError as exc:
            problems.append(f"could not remove {path}, left outside the workspace: {exc.strerror}")
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


def _run_step(case: Case, step: dict, session, tree: CaseTree, result: CaseResult, capabilities=frozenset()) -> None:
    values = tree.values
    if "host" in step or "wait" in step:
        if "host" in step:
            _host_action(substitute(step["host"], values), tree)
        else:
            run_wait(_wait_with_values(step["wait"], {**values, **tree.captured}), session, tree, capabilities, judge)
        problem = check_after(step["after"], tree) if "after" in step else None
        if problem:
            raise StepFailure(f"step {step['id']!r} afterwards: {problem}")
        return
    if "concurrent" in step:
        _run_concurrent(step, session, tree, result)
        return
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
        raise StepFailure(f"step {step['id']!r} ({_describe_call(step)}) " + "; ".join(leaked))
    problem = judge(step["expect"], actual, tree)
    if problem:
        raise StepFailure(f"step {step['id']!r} ({_describe_call(step)}): {problem}{_whole(record)}")
    tree.captured.update(_captured(step["expect"], actual, values))
    tree.captured.update(_captured_parts(step, actual))
    if "after" in step:
        problem = check_after(step["after"], tree)
        if problem:
            raise StepFailure(f"step {step['id']!r} afterwards: {problem}")


def _keep(case: Case, record: dict, result: CaseResult) -> dict:
    """The step as the results file keeps it: a huge actual truncated, the whole one in a file."""
    record = sizes.kept_step(record, f"{case.id}.{record['id']}")
    result.steps.append(record)
    return record


def _whole(record: dict) -> str:
    if not record.get("actual_truncated"):
        return ""
    return (f"\n(the whole actual, {record['actual_size']:,} bytes of JSON, sha256 {record['actual_sha256']}, "
            f"is in {record['actual_file']})")


def _run_concurrent(step: dict, session, tree: CaseTree, result: CaseResult) -> None:
    """Capability concurrent_calls: the calls start together, in order; each Result is judged."""
    calls = [{"tool": c["tool"], "args": substitute(c.get("args", {}), {**tree.values, **tree.captured})}
             for c in step["concurrent"]]
    actuals = session.calls(calls)
    if not isinstance(actuals, list) or len(actuals) != len(calls):
        raise StepFailure(f"step {step['id']!r}: expected {len(calls)} results, got {actuals!r}")
    for i, (call, spec_call, actual) in enumerate(zip(calls, step["concurrent"], actuals)):
        result.steps.append({"id": f"{step['id']}[{i}]", "call": f"{step['id']}[{i}] ({call['tool']})",
                             "args": call["args"], "expected": spec_call["expect"], "actual": actual})
        problem = judge(spec_call["expect"], actual, tree)
        if problem:
            raise StepFailure(f"step {step['id']!r}, call {i} ({call['tool']}): {problem}")
    if "after" in step:
        problem = check_after(step["after"], tree)
        if problem:
            raise StepFailure(f"step {step['id']!r} afterwards: {problem}")


def _host_action(action: dict, tree: CaseTree) -> None:
    for rel, content in (action.get("write") or {}).items():
        path = tree.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content_bytes(content))
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
                raise StepFailure(f"step {step['id']!r}: captures {name}: the result has nothing at {path!r}") from None
        if isinstance(part, bool) or not isinstance(part, (str, int, float)):
            raise StepFailure(f"step {step['id']!r}: captures {name}: {path!r} holds {part!r}, not a number or string")
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

