"""The processor runner's state-signal step: runComputeStateSignal and applyStateSignal.

Upstream: @mastra/core src/processors/runner.ts (runComputeStateSignal) and
src/agent/state-signals.ts (resolveStateSignalHistory, applyStateSignal), 1.71.0. Before each
model call, a processor with computeStateSignal (the task-state processor) is run:
- without a Memory on the agent it throws MEMORY_REQUIRED (the run ends with an error chunk);
- with a Memory but no thread/resource it is skipped;
- otherwise its signal, if any, gets metadata.state {id, cacheKey, mode, threadId, version} (the
  lane's version counting up per thread), is added to the message list (the model is shown it
  as a user message) and written to the stream as a data-signal chunk.

The signal history is the lane's signals in the message list: the ones memory loaded into the
run's window (core/memory/mock.py) and the ones the run sent; when the last snapshot has left the
window, a fresh snapshot is due, whatever changed.
"""
from __future__ import annotations

from ..agent.signals import create_signal


def memory_required_message(processor_id: str) -> str:
    return f"[Processor:{processor_id}] computeStateSignal requires Mastra memory with an active resourceId and threadId"


class StateSignalError(Exception):
    """runComputeStateSignal's throw: the run's stream ends with an error chunk."""


def _lane(signals: list[dict], state_id: str, thread_id: str) -> list[dict]:
    return [s for s in signals if s["metadata"]["state"]["id"] == state_id and s["metadata"]["state"]["threadId"] == thread_id]


def _derive(signals: list[dict]) -> tuple[dict | None, list[dict]]:
    """deriveStateSignalHistory: the last snapshot and the deltas after it."""
    last_index = max((i for i, s in enumerate(signals) if s["metadata"]["state"]["mode"] == "snapshot"), default=-1)
    last_snapshot = signals[last_index] if last_index >= 0 else None
    return last_snapshot, [s for s in signals[last_index + 1:] if s["metadata"]["state"]["mode"] == "delta"]


def run_compute_state_signal(processor, *, memory: bool, thread_id: str | None, resource_id: str | None,
                             store: dict, request_context: dict, window_signals: list[dict], run_signals: list[dict],
                             lanes: dict):
    """One state-signal step: returns the signal emitted (appended to run_signals), or None.

    window_signals are the signals of the thread's messages memory loaded into the run's window,
    run_signals the ones this run sent: together the message list's. lanes keeps each thread's
    tracking {(threadId, stateId): {currentCacheKey, currentMode, version, lastSnapshotSignalId,
    activeCopies}} (upstream: the thread's metadata.mastra.stateSignals, the copies in storage)."""
    if not memory:
        raise StateSignalError(memory_required_message(processor.id))
    if not thread_id or not resource_id:
        return None  # memory but no thread identity: skipped
    state_id = processor.state_id
    tracking = lanes.setdefault((thread_id, state_id), {})
    local = _lane(window_signals + run_signals, state_id, thread_id)
    last_snapshot, deltas = _derive(local)
    has_snapshot = last_snapshot is not None
    if not has_snapshot and tracking.get("lastSnapshotSignalId"):
        # resolveStateSignalHistory: the snapshot left the window; the tracked copies come from storage.
        tracked = {s["id"]: s for s in tracking.get("activeCopies", [])}
        merged = list(tracked.values()) + [s for s in local if s["id"] not in tracked]
        merged.sort(key=lambda s: s["createdAt"])  # stable: equal times keep their order
        last_snapshot, deltas = _derive(merged)
    result = processor.compute_state_signal(thread_id=thread_id, store=store, request_context=request_context,
                                            last_snapshot=last_snapshot, deltas_since_snapshot=deltas,
                                            has_snapshot=has_snapshot)
    if not result:
        return None
    mode = result.get("mode", "snapshot")
    cache_key = result["cacheKey"]
    has_active_copy = any(s["metadata"]["state"].get("cacheKey") == cache_key
                          and s["metadata"]["state"].get("mode") == mode for s in local)
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
    tracking.update({"currentCacheKey": cache_key, "currentMode": mode, "version": version,
                     "lastSnapshotSignalId": signal["id"] if mode == "snapshot" else tracking.get("lastSnapshotSignalId"),
                     "activeCopies": local + [signal]})
    return signal
