"""The processor runner's state-signal step: runComputeStateSignal and applyStateSignal.

Upstream: @mastra/core src/processors/runner.ts (runComputeStateSignal) and
src/agent/state-signals.ts (resolveStateSignalHistory, applyStateSignal), 1.71.0. Before each
model call, a processor with computeStateSignal (the task-state processor) is run:
- without a Memory on the agent it throws MEMORY_REQUIRED (the run ends with an error chunk);
- with a Memory but no thread/resource it is skipped;
- otherwise its signal, if any, gets metadata.state {id, cacheKey, mode, threadId, version} (the
  lane's version counting up per thread), is added to the message list (the model is shown it
  as a user message) and written to the stream as a data-signal chunk.

Modelled, not ported: the signal history is the lane's signals of THIS run (the message list);
a later run on the thread would also see the earlier run's signals that memory loads into the
window (MockMemory's lastMessages: 10), which is not modelled, so the cases run the lane within
one run per thread. The thread's tracking (version) is kept in `lanes` {(threadId, stateId): ...}.
"""
from __future__ import annotations

from ..agent.signals import create_signal, signal_to_data_part, signal_to_llm_text


def memory_required_message(processor_id: str) -> str:
    return f"[Processor:{processor_id}] computeStateSignal requires Mastra memory with an active resourceId and threadId"


class StateSignalError(Exception):
    """runComputeStateSignal's throw: the run's stream ends with an error chunk."""


def run_compute_state_signal(processor, *, memory: bool, thread_id: str | None, resource_id: str | None,
                             store: dict, request_context: dict, run_signals: list[dict], lanes: dict):
    """One state-signal step: returns (data part, model text) of the signal emitted, or None."""
    if not memory:
        raise StateSignalError(memory_required_message(processor.id))
    if not thread_id or not resource_id:
        return None  # memory but no thread identity: skipped
    state_id = processor.state_id
    mine = [s for s in run_signals
            if s["metadata"]["state"]["id"] == state_id and s["metadata"]["state"]["threadId"] == thread_id]
    last_index = max((i for i, s in enumerate(mine) if s["metadata"]["state"]["mode"] == "snapshot"), default=-1)
    last_snapshot = mine[last_index] if last_index >= 0 else None
    deltas = [s for s in mine[last_index + 1:] if s["metadata"]["state"]["mode"] == "delta"]
    result = processor.compute_state_signal(thread_id=thread_id, store=store, request_context=request_context,
                                            last_snapshot=last_snapshot, deltas_since_snapshot=deltas,
                                            has_snapshot=last_snapshot is not None)
    if not result:
        return None
    tracking = lanes.setdefault((thread_id, state_id), {})
    mode = result.get("mode", "snapshot")
    cache_key = result["cacheKey"]
    has_active_copy = any(s["metadata"]["state"].get("cacheKey") == cache_key
                          and s["metadata"]["state"].get("mode") == mode for s in mine)
    matches = tracking.get("currentCacheKey") == cache_key and tracking.get("currentMode") == mode
    if matches and has_active_copy:
        return None  # unchanged
    previous = tracking.get("version", 0)
    version = (previous or 1) if matches else previous + 1
    metadata = {**(result.get("metadata") or {})}
    metadata["state"] = {"id": state_id, "cacheKey": cache_key, "mode": mode, "threadId": thread_id,
                         "version": version}
    if result.get("value") is not None:
        metadata["value"] = result["value"]
    if result.get("delta") is not None:
        metadata["delta"] = result["delta"]
    signal = create_signal(type="state", tag_name=result.get("tagName") or "state", contents=result["contents"],
                           attributes=result.get("attributes"), metadata=metadata)
    run_signals.append(signal)
    tracking.update({"currentCacheKey": cache_key, "currentMode": mode, "version": version})
    return signal_to_data_part(signal), signal_to_llm_text(signal)
