"""The task-state processor: the task list on the agent's state-signal lane `tasks`.

Upstream: @mastra/core src/tools/builtin/task-state-processor.ts (1.71.0). processInput adds one
system message (after the agent's instructions, before the workspace's). computeStateSignal runs
before each model call of a memory-backed run (processors/runner.py): the first emission (or one
without its base snapshot in the window, or after DELTA_SNAPSHOT_CAP deltas) is a `snapshot`
signal <current-task-list count="N">, later changes `delta` signals <task-list-update
changes="N"> with only the changed tasks; an unchanged list emits nothing.
"""
from __future__ import annotations

from .task_tools import TASK_STATE_TYPE, TASKS_STATE_ID, get_tasks_from_request_context

SYSTEM_MESSAGE = (
    "Task list state may appear in the conversation as <current-task-list ...>...</current-task-list> snapshots and "
    "<task-list-update ...>...</task-list-update> deltas. These are automatic observations of your task list, not "
    "user instructions. Use them as the latest task state, continue following the actual user request, and do not "
    "treat task-list updates as the user asking you to repeat, summarize, or change tasks unless an actual user "
    "message asks for that.")

DELTA_SNAPSHOT_CAP = 10


def _icon(status: str) -> str:
    return "✓" if status == "completed" else "▸" if status == "in_progress" else "○"


def render_task_list(tasks: list[dict]) -> str:
    if not tasks:
        return ""
    lines = [f"  {_icon(t['status'])} [{t['status']}] {{id: {t['id']}}} {t['content']}" for t in tasks]
    return "\n" + "\n".join(lines) + "\n"


def _lp(value: str) -> str:
    return f"{len(value.encode('utf-16-le')) // 2}:{value}"  # JS string length: UTF-16 code units


def task_fingerprint(t: dict) -> str:
    return f"{_lp(t['id'])}{_lp(t['status'])}{_lp(t['content'])}{_lp(t['activeForm'])}"


def stable_tasks_cache_key(tasks: list[dict]) -> str:
    return "tasks:" + "|".join(task_fingerprint(t) for t in tasks)


def diff_tasks(prior: list[dict], current: list[dict]) -> list[dict]:
    ops = []
    by_id = {t["id"]: t for t in prior}
    current_ids = {t["id"] for t in current}
    for task in current:
        before = by_id.get(task["id"])
        if before is None:
            ops.append({"op": "add", "task": task})
        elif task_fingerprint(before) != task_fingerprint(task):
            ops.append({"op": "update", "task": task})
    for task in prior:
        if task["id"] not in current_ids:
            ops.append({"op": "remove", "id": task["id"]})
    return ops


def render_delta(ops: list[dict]) -> str:
    lines = []
    for op in ops:
        if op["op"] == "remove":
            lines.append(f"  − removed {{id: {op['id']}}}")
            continue
        task = op["task"]
        verb = "+" if op["op"] == "add" else _icon(task["status"])
        lines.append(f"  {verb} {{id: {task['id']}}} [{task['status']}] {task['content']}")
    return "\n" + "\n".join(lines) + "\n"


def _apply_ops(tasks: list[dict], ops: list[dict]) -> list[dict]:
    out = list(tasks)
    for op in ops:
        if op["op"] == "remove":
            out = [t for t in out if t["id"] != op["id"]]
            continue
        index = next((i for i, t in enumerate(out) if t["id"] == op["task"]["id"]), -1)
        if index >= 0:
            out[index] = op["task"]
        else:
            out.append(op["task"])
    return out


def effective_prior_tasks(last_snapshot: dict | None, deltas: list[dict]) -> list[dict]:
    tasks = list(((last_snapshot or {}).get("metadata") or {}).get("value", {}).get("tasks") or [])
    for delta in deltas:
        tasks = _apply_ops(tasks, ((delta.get("metadata") or {}).get("delta") or {}).get("ops") or [])
    return tasks


class TaskStateProcessor:
    id = "task-state"
    state_id = TASKS_STATE_ID

    def process_input(self, system_messages: list[str]) -> list[str]:
        return [*system_messages, SYSTEM_MESSAGE]

    def compute_state_signal(self, *, thread_id: str, store: dict, request_context: dict,
                             last_snapshot: dict | None, deltas_since_snapshot: list[dict],
                             has_snapshot: bool) -> dict | None:
        prior = effective_prior_tasks(last_snapshot, deltas_since_snapshot)
        carried = get_tasks_from_request_context(request_context)
        if carried is not None:
            current = carried
        else:
            stored = store.get((thread_id, TASK_STATE_TYPE)) if store is not None else None
            current = stored if isinstance(stored, list) else prior
        if not current and not prior:
            return None
        has_base = last_snapshot is not None and has_snapshot
        ops = diff_tasks(prior, current)
        if not ops and has_base:
            return None
        current = [dict(t) for t in current]
        if not has_base or len(deltas_since_snapshot) >= DELTA_SNAPSHOT_CAP:
            return {"id": TASKS_STATE_ID, "cacheKey": stable_tasks_cache_key(current), "mode": "snapshot",
                    "tagName": "current-task-list", "contents": render_task_list(current),
                    "value": {"tasks": current}, "attributes": {"count": len(current)},
                    "metadata": {"value": {"tasks": current}}}
        return {"id": TASKS_STATE_ID, "cacheKey": stable_tasks_cache_key(current), "mode": "delta",
                "tagName": "task-list-update", "contents": render_delta(ops), "value": {"tasks": current},
                "delta": {"ops": ops}, "attributes": {"changes": len(ops)},
                "metadata": {"value": {"tasks": current}, "delta": {"ops": ops}}}
