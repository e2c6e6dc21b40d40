"""Capability `agent_loop`: a small model of the documented parts of Mastra's agent loop.

What the bridge's lib/agent.mjs shows of a real Agent with a scripted model, for the turns a case
scripts (spec/protocol.md `agent`): the system messages (the agent's instructions, then the
workspace's), the stream's chunks, what each model call is shown of the previous tool results,
the message list's tool invocations, the agent-level hooks, the approval flow and the abort
signal. Modelled, not ported: the calls of one turn run one after another here (upstream runs them
concurrently, so the cases give each turn one call), and only the chunk types the cases see exist.

Capability task_signals: `signals: ["tasks"]` gives the agent the TaskSignalProvider (core/signals/):
its four task tools come before the workspace tools, its processor's system message after the
instructions, and before each model call its state-signal step (core/processors/runner.py) may add
a signal, which the stream carries as a data-signal chunk and the next model call is shown as a
user message after the tool results; `memory: "mock"` is the Memory that step needs, which also
keeps a thread's messages and shows a later run of it the last 10 (core/memory/mock.py): in its
first model call's prompt (`history`) and its message list (`invocations`).
"""
from __future__ import annotations

import re
import threading

from ..js.abort import AbortSignal
from ..utils import resolve_dynamic
from ..validation import validate_input
from .wire import to_json
from ..core.agent.signals import signal_to_data_part, signal_to_llm_text
from ..core.memory.mock import ThreadHistory, model_view
from ..core.processors.runner import StateSignalError, run_compute_state_signal
from ..core.signals import TaskSignalProvider
from ..tools.base import ToolContext

INSTRUCTIONS = "You are the wsconf test agent."
DECLINED = "Tool call was not approved by the user"
SIGNAL_PROVIDERS = {"tasks": TaskSignalProvider}
RESOURCE = "wsconf"  # the bridge's resource id for a run's thread


class SignalToolBinding:
    """A signal provider's tool in the agent's tool set: the BoundTool interface the loop uses."""

    def __init__(self, tool, context: dict):
        self.tool = tool
        self.settings: dict = {}
        self.context = context  # ToolContext.extra: agent {threadId, resourceId}, store, requestContext
        self.tool_call_id = None
        self.agent_context: dict = {}

    def execute(self, args: dict):
        return self.tool.execute(args, ToolContext(workspace=None, extra=self.context))

    def to_model_output(self, output):
        return None


class AgentParamsError(ValueError):
    """Bad `agent` params: a fault, not a result."""


def _check(params: dict) -> None:
    turns = params.get("turns")
    if not isinstance(turns, list) or not turns:
        raise AgentParamsError("params.turns must be a non-empty list")
    for i, turn in enumerate(turns):
        if not isinstance(turn, dict) or set(turn) - {"calls", "text"}:
            raise AgentParamsError(f"params.turns[{i}] must be an object {{calls?, text?}}")
    approvals = params.get("approvals", [])
    if not isinstance(approvals, list) or any(not isinstance(a, bool) for a in approvals):
        raise AgentParamsError("params.approvals must be a list of booleans")
    if "thread" in params and (not isinstance(params["thread"], str) or not params["thread"]):
        raise AgentParamsError("params.thread must be a non-empty string")
    signals = params.get("signals", [])
    if not isinstance(signals, list) or any(name not in SIGNAL_PROVIDERS for name in signals):
        raise AgentParamsError(f"params.signals must be a list of signal providers ({', '.join(SIGNAL_PROVIDERS)})")
    if "memory" in params and params["memory"] != "mock":
        raise AgentParamsError('params.memory must be "mock"')
    prefix = params.get("callPrefix", "call")
    if not isinstance(prefix, str) or not re.fullmatch(r"[a-z0-9]+", prefix):
        raise AgentParamsError("params.callPrefix must be lowercase letters and digits")


def _message(exc: BaseException) -> str:
    return getattr(exc, "message", None) or str(exc)


def _shown(bound, output) -> dict:
    """What the model is shown of a result: toModelOutput's, else text for a string, JSON otherwise."""
    model = bound.to_model_output(output)
    if model is not None:
        return model
    return {"type": "text", "value": output} if isinstance(output, str) else {"type": "json", "value": to_json(output)}


def _needs_approval(bound, args, session) -> bool:
    value = bound.settings.get("requireApproval", False)
    if callable(value):  # a function of the call, evaluated when the loop reaches it
        return resolve_dynamic(value, {"args": args, "requestContext": session.request_context,
                                       "workspace": session.workspace}, True)
    return value is True


def run_agent(session, params: dict) -> dict:
    _check(params)
    hook_log = session.hook_log
    record_hooks = params.get("hooks") is True
    approvals = list(params.get("approvals", []))
    # The agent builds its own tool set: a fresh write lock, and a fresh tracker unless the run has a
    # thread, whose reads the session's storage keeps (capability agent_threads).
    tools = session._build_tools(thread=params.get("thread"))
    # Capability task_signals: the providers' tools first (the agent merges them before the workspace's).
    thread = params.get("thread")
    providers = [SIGNAL_PROVIDERS[name]() for name in params.get("signals", [])]
    processors = [p for provider in providers for p in provider.get_input_processors()]
    memory = params.get("memory") == "mock"
    run_context: dict = {}  # the run's request context, where the task tools surface their list
    tool_context = {"agent": {"threadId": thread, "resourceId": RESOURCE if thread else None} if memory else {},
                    "store": session.thread_state, "requestContext": run_context}
    if providers:
        signal_tools = {name: SignalToolBinding(tool, tool_context)
                        for provider in providers for name, tool in provider.get_tools().items()}
        tools = {**signal_tools, **tools}
    run_signals: list[dict] = []
    signals_shown: list[list[str]] = []
    lanes = session.__dict__.setdefault("state_signal_lanes", {})
    prompt = params.get("prompt", "go")
    prefix = params.get("callPrefix", "call")
    # The Memory's message history of the thread (the session's storage): what the first model call is shown.
    history = (ThreadHistory(session.__dict__.setdefault("memory_threads", {}).setdefault(thread, []))
               if memory and thread else None)
    if history is not None:
        history.add_user(prompt)
    first_prompt: list[dict] = []
    signal = AbortSignal()
    timer = None
    if params.get("abortAfterMs") is not None:
        timer = threading.Timer(params["abortAfterMs"] / 1000, signal.abort)
        timer.daemon = True
        timer.start()

    chunks: list[dict] = []
    chunks_lock = threading.Lock()

    def write(chunk: dict) -> None:
        view = {"type": chunk["type"]}
        data = chunk.get("data") or {}
        if "toolName" in data:
            view["toolName"] = data["toolName"]
        if "toolCallId" in data:
            view["toolCallId"] = data["toolCallId"]
        if chunk["type"] != "data-workspace-metadata":
            view["data"] = to_json(data)
        with chunks_lock:
            chunks.append(view)

    instructions = session.workspace.get_instructions_async({"requestContext": session.request_context})
    system = [INSTRUCTIONS]
    for processor in processors:
        system = processor.process_input(system)
    system = system + ([instructions] if instructions else [])
    extra = {"offered": list(tools), "signals": signals_shown, "history": first_prompt} if providers else None

    def state_signals() -> list[str] | None:
        """The state-signal step before a model call: the texts it adds (None: the run fails)."""
        texts = []
        for processor in processors:
            try:
                emitted = run_compute_state_signal(
                    processor, memory=memory, thread_id=thread, resource_id=RESOURCE if thread else None,
                    store=session.thread_state, request_context=run_context,
                    window_signals=history.window_signals() if history is not None else [],
                    run_signals=run_signals, lanes=lanes)
            except StateSignalError as exc:
                chunks.append({"type": "error", "error": str(exc)})
                return None
            if emitted is not None:
                part = signal_to_data_part(emitted)
                chunks.append({"type": part["type"], "data": to_json(part["data"])})
                texts.append(signal_to_llm_text(emitted))
                if history is not None:
                    history.add_signal(emitted)
        return texts
    shown: list[list[dict]] = []
    # The message list's tool invocations: the ones of the Memory's window first.
    invocations: list[dict] = history.window_invocations() if history is not None else []
    model_calls = 0
    previous: list[dict] = []
    try:
        for n, turn in enumerate(params["turns"], start=1):
            if signal.aborted:
                break
            texts = state_signals()
            if texts is None:
                return _value([] if model_calls == 0 else system, chunks, shown, invocations, model_calls, extra,
                              failed=model_calls == 0)
            model_calls += 1
            if n > 1:
                shown.append(previous)
                signals_shown.append(texts)
            elif history is not None:
                first_prompt.extend(model_view(history.window + history.added))
            else:
                first_prompt.extend(model_view([{"role": "user", "text": prompt}]))
            previous = []
            if "text" in turn:
                chunks.append({"type": "text-delta", "text": turn["text"]})
            calls = turn.get("calls") or []
            if history is not None:
                history.add_step([turn["text"]] if "text" in turn else [],
                                 [(f"{prefix}-{n}-{i}", call["tool"]) for i, call in enumerate(calls, start=1)])
            if not calls:
                break  # finishReason "stop": the run ends
            for i, call in enumerate(calls, start=1):
                tool_call_id = f"{prefix}-{n}-{i}"
                name, args = call["tool"], call.get("args", {})
                bound = tools[name]
                chunks.append({"type": "tool-call", "toolCallId": tool_call_id, "toolName": name, "args": to_json(args)})
                if _needs_approval(bound, args, session):
                    chunks.append({"type": "tool-call-approval", "toolCallId": tool_call_id, "toolName": name,
                                   "args": to_json(args)})
                    if not approvals:  # no answer scripted: the run stays suspended here
                        invocations.append({"toolCallId": tool_call_id, "toolName": name, "state": "input-available"})
                        return _value(system, chunks, shown, invocations, model_calls, extra)
                    approved = approvals.pop(0)
                    chunks.append({"type": "wsconf-approve" if approved else "wsconf-decline", "toolCallId": tool_call_id})
                    if not approved:
                        chunks.append({"type": "tool-output-denied", "toolName": name, "toolCallId": tool_call_id})
                        invocations.append({"toolCallId": tool_call_id, "toolName": name, "state": "output-available",
                                            "output": DECLINED})
                        previous.append({"toolCallId": tool_call_id, "toolName": name,
                                         "output": {"type": "text", "value": DECLINED}})
                        continue
                outcome = _execute(bound, name, args, tool_call_id, write, signal, hook_log, record_hooks)
                if "error" in outcome:
                    message = outcome["error"]
                    chunks.append({"type": "tool-error", "toolCallId": tool_call_id, "toolName": name, "error": message})
                    invocations.append({"toolCallId": tool_call_id, "toolName": name, "state": "output-error",
                                        "errorText": message})
                    previous.append({"toolCallId": tool_call_id, "toolName": name,
                                     "output": {"type": "error-text", "value": message}})
                    continue
                output = outcome["output"]
                result_chunk = {"type": "tool-result", "toolCallId": tool_call_id, "toolName": name,
                                "result": to_json(output)}
                chunks.append(result_chunk)
                invocations.append({"toolCallId": tool_call_id, "toolName": name, "state": "output-available",
                                    "output": to_json(output)})
                previous.append({"toolCallId": tool_call_id, "toolName": name, "output": _shown(bound, output)})
                if signal.aborted:  # the result chunk comes twice, then the abort chunk ends the stream
                    chunks.append(dict(result_chunk))
                    chunks.append({"type": "abort"})
                    return _value(system, chunks, shown, invocations, model_calls, extra)
        else:
            # Past the scripted turns the model answers with nothing and the run stops.
            if not signal.aborted:
                texts = state_signals()
                if texts is None:
                    return _value(system, chunks, shown, invocations, model_calls, extra)
                model_calls += 1
                shown.append(previous)
                signals_shown.append(texts)
    finally:
        if timer is not None:
            timer.cancel()
        if history is not None:
            history.save(invocations)
    return _value(system, chunks, shown, invocations, model_calls, extra)


def _execute(bound, name, args, tool_call_id, write, signal, hook_log, record_hooks) -> dict:
    """The agent's tool builder: agent beforeToolCall, validation, the workspace tool, agent afterToolCall."""
    if record_hooks:
        hook_log.append({"hook": "agent.beforeToolCall", "toolName": name, "input": to_json(args)})
    checked = validate_input(bound.tool, args)
    try:
        if isinstance(checked, dict) and checked.get("error") is True:
            output = checked  # the model is handed the validation result; nothing runs
        else:
            bound.tool_call_id = tool_call_id
            bound.agent_context = {"writer": write, "abortSignal": signal}
            try:
                output = bound.execute(checked)
            finally:
                bound.agent_context = {}
    except Exception as exc:  # noqa: BLE001 - a thrown error becomes a tool-error chunk
        if record_hooks:
            hook_log.append({"hook": "agent.afterToolCall", "toolName": name, "input": to_json(args), "output": None,
                             "error": _message(exc)})
        return {"error": _message(exc)}
    if record_hooks:
        hook_log.append({"hook": "agent.afterToolCall", "toolName": name, "input": to_json(args),
                         "output": to_json(output), "error": None})
    return {"output": output}


def _value(system, chunks, shown, invocations, model_calls, extra=None, failed=False) -> dict:
    value = {"system": system, "chunks": chunks, "shown": shown, "invocations": invocations, "modelCalls": model_calls}
    if extra is not None:  # capability task_signals; a run that failed before its first model call was offered nothing
        value.update({"offered": [] if failed else extra["offered"], "signals": extra["signals"],
                      "history": extra["history"]})
    return {"kind": "value", "model": None, "value": value}
