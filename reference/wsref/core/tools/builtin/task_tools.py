"""The four task tools: task_write, task_update, task_complete, task_check.

Upstream: @mastra/core src/tools/builtin/task-tools.ts (1.71.0). They keep a structured task list
for an agent run in the thread-scoped `threadState` storage under the type `task`. They need a
memory-backed run (a threadId and a resourceId): without one each answers NO_MEMORY_MESSAGE with
isError true and records nothing. A write also puts the new list on the request context under
`mastra:tasks`, where the task-state processor reads the list of the current step.

The tool context here is a ToolContext whose `extra` holds `agent` ({threadId, resourceId}),
`store` (the session's thread state, {(threadId, type): value}, or None) and `requestContext`
(a dict), the parts of the upstream context these tools use. Not ported: task_update's refine
(at least one field to change) and the execute functions' catch ("Failed to update tasks: ...");
no case reaches them.
"""
from __future__ import annotations

from ....tools.base import Tool

TASKS_REQUEST_CONTEXT_KEY = "mastra:tasks"
TASKS_STATE_ID = "tasks"
TASK_STATE_TYPE = "task"

NO_MEMORY_MESSAGE = ("Task tools require agent memory (a memory-backed thread). No task was recorded. "
                     "Configure the agent with Memory to use the task list.")

TASK_ID_SLUG_MAX_LENGTH = 48
STATUSES = ["pending", "in_progress", "completed"]

_TASK_ID = {"type": "string", "minLength": 1,
            "description": "Stable task identifier (for example, 'task_investigate_tests'). Keep this unchanged "
                           "across updates."}
_TASK_ITEM_INPUT = {
    "type": "object",
    "properties": {
        "id": _TASK_ID,
        "content": {"type": "string", "minLength": 1,
                    "description": "Task description in imperative form (e.g., 'Fix authentication bug')"},
        "status": {"type": "string", "enum": STATUSES, "description": "Current task status"},
        "activeForm": {"type": "string", "minLength": 1,
                       "description": "Present continuous form shown during execution (e.g., 'Fixing authentication "
                                      "bug')"},
    },
    "required": ["content", "status", "activeForm"],
}


# --- ids ---------------------------------------------------------------------------------------

def slugify_task_content(content: str) -> str:
    slug = ""
    pending_separator = False
    for char in content.lower():
        code = ord(char)
        if 97 <= code <= 122 or 48 <= code <= 57:
            if pending_separator and 0 < len(slug) < TASK_ID_SLUG_MAX_LENGTH:
                slug += "_"
            if len(slug) >= TASK_ID_SLUG_MAX_LENGTH:
                break
            slug += char
            pending_separator = False
            continue
        pending_separator = len(slug) > 0
    return slug


def create_deterministic_task_id(task: dict, occurrence: int) -> str:
    slug = slugify_task_content(task["content"])
    suffix = f"_{occurrence}" if occurrence > 1 else ""
    return f"task_{slug or 'item'}{suffix}"


def make_unique_task_id(task_id: str, used: set, reserved: set | None = None) -> str:
    reserved = reserved or set()
    if task_id not in used and task_id not in reserved:
        return task_id
    suffix = 2
    next_id = f"{task_id}_{suffix}"
    while next_id in used or next_id in reserved:
        suffix += 1
        next_id = f"{task_id}_{suffix}"
    return next_id


def assign_task_ids(tasks: list[dict], previous: list[dict] | None = None) -> list[dict]:
    previous = previous or []
    used: set = set()
    occurrences: dict = {}
    omitted_counts: dict = {}
    explicit = {t["id"] for t in tasks if t.get("id")}
    reusable: dict = {}
    for task in tasks:
        if not task.get("id"):
            omitted_counts[task["content"]] = omitted_counts.get(task["content"], 0) + 1
    for index, task in enumerate(tasks):
        if task.get("id") or omitted_counts.get(task["content"]) != 1:
            continue
        matches = [p for p in previous if p["content"] == task["content"] and p["id"] not in explicit]
        if len(matches) == 1:
            reusable[index] = matches[0]["id"]
    reserved = explicit | set(reusable.values())
    out = []
    for index, task in enumerate(tasks):
        occurrence = occurrences.get(task["content"], 0) + 1
        occurrences[task["content"]] = occurrence
        fallback = create_deterministic_task_id(task, occurrence)
        reuse = reusable.get(index)
        requested = task["id"] if task.get("id") and task["id"] not in used else None
        if requested is not None:
            task_id = requested
        elif reuse and reuse not in used:
            task_id = reuse
        else:
            task_id = make_unique_task_id(fallback, used, reserved)
        used.add(task_id)
        out.append({"id": task_id, "content": task["content"], "status": task["status"],
                    "activeForm": task["activeForm"]})
    return out


# --- texts -------------------------------------------------------------------------------------

def format_task_list_result(tasks: list[dict]) -> str:
    completed = sum(1 for t in tasks if t["status"] == "completed")
    in_progress = next((t for t in tasks if t["status"] == "in_progress"), None)
    summary = f"Tasks updated: [{completed}/{len(tasks)} completed]"
    if in_progress:
        summary += f"\nCurrently: {in_progress['activeForm']} ({in_progress['id']})"
    if tasks:
        summary += "\nTask IDs:\n" + "\n".join(f"- {t['id']}: {t['content']} ({t['status']})" for t in tasks)
    return summary


def summarize_task_check(tasks: list[dict]) -> dict:
    completed = [t for t in tasks if t["status"] == "completed"]
    in_progress = [t for t in tasks if t["status"] == "in_progress"]
    pending = [t for t in tasks if t["status"] == "pending"]
    incomplete = in_progress + pending
    return {
        "summary": {"total": len(tasks), "completed": len(completed), "inProgress": len(in_progress),
                    "pending": len(pending), "incomplete": len(incomplete), "hasTasks": len(tasks) > 0,
                    "allCompleted": len(tasks) > 0 and not incomplete},
        "inProgressTasks": in_progress, "pendingTasks": pending, "incompleteTasks": incomplete,
    }


def format_task_check_result(check: dict) -> str:
    summary = check["summary"]
    if not summary["hasTasks"]:
        return "No tasks found. Consider using task_write to create a task list for complex work."
    response = f"Task Status: [{summary['completed']}/{summary['total']} completed]\n"
    response += f"- Completed: {summary['completed']}\n"
    response += f"- In Progress: {summary['inProgress']}\n"
    response += f"- Pending: {summary['pending']}\n"
    response += f"\nAll tasks completed: {'YES' if summary['allCompleted'] else 'NO'}"
    if not summary["allCompleted"]:
        response += "\n\nIncomplete tasks:"
        if check["inProgressTasks"]:
            response += "\n\nIn Progress:"
            for t in check["inProgressTasks"]:
                response += f"\n- {t['id']}: {t['content']}"
        if check["pendingTasks"]:
            response += "\n\nPending:"
            for t in check["pendingTasks"]:
                response += f"\n- {t['id']}: {t['content']}"
        response += "\n\nContinue working on these tasks before ending."
    return response


def has_multiple_in_progress(tasks: list[dict]) -> bool:
    return sum(1 for t in tasks if t["status"] == "in_progress") > 1


def demote_extra_in_progress(tasks: list[dict], preferred: int | None = None) -> list[dict]:
    indices = [i for i, t in enumerate(tasks) if t["status"] == "in_progress"]
    if len(indices) <= 1:
        return tasks
    keep = preferred if preferred is not None and preferred in indices else indices[-1]
    return [{**t, "status": "pending"} if t["status"] == "in_progress" and i != keep else t
            for i, t in enumerate(tasks)]


def format_available_task_ids(tasks: list[dict]) -> str:
    if not tasks:
        return "No tasks are currently tracked."
    return "Available task IDs:\n" + "\n".join(f"- {t['id']}: {t['content']} ({t['status']})" for t in tasks)


def _result(content: str, tasks: list[dict], is_error: bool) -> dict:
    return {"content": content, "tasks": tasks, "isError": is_error}


def _no_memory_result() -> dict:
    return _result(NO_MEMORY_MESSAGE, [], True)


def _no_memory_check_result() -> dict:
    empty = summarize_task_check([])
    return {"content": NO_MEMORY_MESSAGE, "tasks": [], "isError": True, "summary": empty["summary"],
            "incompleteTasks": empty["incompleteTasks"]}


# --- the store ---------------------------------------------------------------------------------

def _is_memory_backed(ctx) -> bool:
    agent = ctx.extra.get("agent") or {}
    return bool(agent.get("threadId") and agent.get("resourceId"))


def read_task_store(ctx) -> list[dict]:
    store, thread_id = ctx.extra.get("store"), (ctx.extra.get("agent") or {}).get("threadId")
    if store is None or not thread_id:
        return []
    tasks = store.get((thread_id, TASK_STATE_TYPE))
    return [dict(t) for t in tasks] if isinstance(tasks, list) else []


def _apply_task_mutation(ctx, mutation) -> dict:
    store, thread_id = ctx.extra.get("store"), (ctx.extra.get("agent") or {}).get("threadId")
    if store is None or not thread_id:
        return _no_memory_result()
    result = mutation(read_task_store(ctx))
    if not result["isError"]:
        store[(thread_id, TASK_STATE_TYPE)] = [dict(t) for t in result["tasks"]]
        request_context = ctx.extra.get("requestContext")
        if request_context is not None:
            request_context[TASKS_REQUEST_CONTEXT_KEY] = [dict(t) for t in result["tasks"]]
    return result


# --- the tools ---------------------------------------------------------------------------------

def _write(args: dict, ctx) -> dict:
    if not _is_memory_backed(ctx):
        return _no_memory_result()

    def mutation(current):
        normalized = assign_task_ids(args["tasks"], current)
        if has_multiple_in_progress(normalized):
            return _result("Only one task can be in_progress at a time.", current, True)
        return _result(format_task_list_result(normalized), normalized, False)
    return _apply_task_mutation(ctx, mutation)


def _not_found(task_id: str, tasks: list[dict]) -> dict:
    return _result(f"Task not found: {task_id}\n\n{format_available_task_ids(tasks)}", tasks, True)


def _change_one(args: dict, ctx, change) -> dict:
    """task_update and task_complete: change the task with args["id"] (change(tasks, index) gives the
    new list), or answer that no task has that id."""
    if not _is_memory_backed(ctx):
        return _no_memory_result()

    def mutation(tasks):
        index = next((i for i, t in enumerate(tasks) if t["id"] == args["id"]), -1)
        if index == -1:
            return _not_found(args["id"], tasks)
        updated = change(tasks, index)
        return _result(format_task_list_result(updated), updated, False)
    return _apply_task_mutation(ctx, mutation)


def _update(args: dict, ctx) -> dict:
    changed = {k: args[k] for k in ("content", "status", "activeForm") if k in args}
    return _change_one(args, ctx, lambda tasks, index: demote_extra_in_progress(
        [{**t, **changed} if i == index else t for i, t in enumerate(tasks)], index))


def _complete(args: dict, ctx) -> dict:
    return _change_one(args, ctx, lambda tasks, index: [
        {**t, "status": "completed"} if i == index else t for i, t in enumerate(tasks)])


def _check(args: dict, ctx) -> dict:
    if not _is_memory_backed(ctx):
        return _no_memory_check_result()
    tasks = read_task_store(ctx)
    check = summarize_task_check(tasks)
    return {"content": format_task_check_result(check), "tasks": tasks, "isError": False,
            "summary": check["summary"], "incompleteTasks": check["incompleteTasks"]}


task_write_tool = Tool(
    id="task_write",
    description=(
        'Create and manage a structured task list for your current coding session. This helps you track progress, organize complex tasks, and demonstrate thoroughness to the user.\n'
        '\n'
        'Usage:\n'
        '- Use this to create the initial task list or replace the whole list after replanning\n'
        '- Pass the FULL task list each time this tool is called (replaces the previous list)\n'
        '- Each task has: id (stable identifier), content (imperative), status (pending, in_progress, or completed), activeForm (present continuous)\n'
        '- IDs must be unique. If duplicate explicit IDs are provided, the duplicate task is returned with a generated fallback ID\n'
        '- Keep task IDs stable across updates. If omitted, IDs are generated and returned in the tool result\n'
        '- When an ID is omitted while rewriting an existing list, one unambiguous matching task may reuse an existing ID\n'
        '- Prefer single-task update tools when they are available\n'
        '- Mark tasks in_progress BEFORE starting work (only ONE at a time)\n'
        '- Mark tasks completed IMMEDIATELY after finishing\n'
        '- Use this for multi-step tasks requiring 3+ distinct actions\n'
        '\n'
        'States:\n'
        '- pending: Not yet started\n'
        '- in_progress: Currently working on (limit to ONE)\n'
        '- completed: Finished successfully'),
    input_schema={"type": "object", "properties": {
        "tasks": {"type": "array", "items": _TASK_ITEM_INPUT, "description": "The complete updated task list"}},
        "required": ["tasks"]},
    execute=_write,
)
task_update_tool = Tool(
    id="task_update",
    description=(
        'Update one task in the current task list by stable ID. Use this for targeted changes to one existing task.\n'
        '\n'
        'Usage:\n'
        '- Provide the task ID returned by the task-list tools\n'
        '- Include only the fields that changed\n'
        '- Use status to move a task between pending, in_progress, and completed\n'
        '- Use task_complete when only marking a task completed\n'
        '- If the ID is unknown, the tool returns an error with available task IDs'),
    input_schema={"type": "object", "properties": {
        "id": _TASK_ID,
        "content": {"type": "string", "minLength": 1},
        "status": {"type": "string", "enum": STATUSES},
        "activeForm": {"type": "string", "minLength": 1}}, "required": ["id"]},
    execute=_update,
)
task_complete_tool = Tool(
    id="task_complete",
    description=(
        'Mark one task completed by stable ID. Use this when one tracked task is finished.\n'
        '\n'
        'Usage:\n'
        '- Provide the task ID returned by the task-list tools\n'
        '- If the ID is unknown, the tool returns an error with available task IDs'),
    input_schema={"type": "object", "properties": {"id": _TASK_ID}, "required": ["id"]},
    execute=_complete,
)
task_check_tool = Tool(
    id="task_check",
    description=(
        'Check the completion status of your current task list. Use this before finishing tracked work to ensure all tasks are completed.\n'
        '\n'
        'Returns:\n'
        '- Human-readable content summary with task counts and incomplete task IDs\n'
        '- Structured task list snapshot with stable IDs\n'
        '- summary object with total, completed, inProgress, pending, incomplete, hasTasks, and allCompleted\n'
        '- incompleteTasks array for tasks that still need work\n'
        '\n'
        'summary.allCompleted is true only when at least one tracked task exists and every tracked task is completed. If no tasks exist, summary.hasTasks is false and summary.allCompleted is false.'),
    input_schema={"type": "object", "properties": {}},
    execute=_check,
)


def get_tasks_from_request_context(request_context: dict | None) -> list[dict] | None:
    """The list a task tool surfaced on the request context this run, or None."""
    carried = (request_context or {}).get(TASKS_REQUEST_CONTEXT_KEY)
    if isinstance(carried, list) and all(
            isinstance(t, dict) and all(isinstance(t.get(k), str) for k in ("id", "content", "status", "activeForm"))
            for t in carried):
        return carried
    return None
