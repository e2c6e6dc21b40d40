"""mastra_workspace_kill_process (upstream `tools/kill-process.ts`): SIGKILL a background process (its whole group) and show its last output."""
from __future__ import annotations

from ..sandbox.errors import SandboxFeatureNotSupportedError
from .base import Tool, ToolContext
from .helpers import defined, dynamic_sandbox_hint, emit_workspace_metadata
from .output_helpers import sandbox_to_model_output, truncate_output

KILL_PROCESS = "mastra_workspace_kill_process"
KILL_TAIL_LINES = 50

DESCRIPTION = f"""Kill a background process by its PID.

Use this to stop a long-running background process that was started with execute_command (background: true). Returns the last {KILL_TAIL_LINES} lines of output."""

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "pid": {"type": "string", "description": "The process ID of the background process to kill"},
    },
    "required": ["pid"],
    "additionalProperties": False,
}


def execute(args: dict, ctx: ToolContext):
    workspace = ctx.workspace
    sandbox = workspace.require_sandbox()
    emit_workspace_metadata(ctx, KILL_PROCESS)
    pid = args["pid"]
    processes = getattr(sandbox, "processes", None)
    if processes is None:
        raise SandboxFeatureNotSupportedError("processes")
    handle = processes.get(pid)          # the output is read from this handle after the kill
    call_id, writer = ctx.extra.get("toolCallId"), ctx.extra.get("writer")
    if writer is not None and handle is not None and handle.command:
        writer({"type": "data-sandbox-command", "data": defined({"command": handle.command, "pid": pid, "toolCallId": call_id})})
    if not processes.kill(pid):
        if writer is not None:
            writer({"type": "data-sandbox-exit", "data": defined({
                "exitCode": -1 if handle is None or handle.exit_code is None else handle.exit_code,
                "success": False, "killed": False, "toolCallId": call_id})})
        return f"Process {pid} was not found or had already exited.{dynamic_sandbox_hint(workspace)}"
    if writer is not None:
        writer({"type": "data-sandbox-exit", "data": defined({
            "exitCode": 137 if handle is None or handle.exit_code is None else handle.exit_code,
            "success": False, "killed": True, "toolCallId": call_id})})
    parts = [f"Process {pid} has been killed."]
    if handle is not None:
        token_limit = workspace.tool_config(KILL_PROCESS).get("maxOutputTokens")
        _, raw_stdout, raw_stderr = handle.snapshot()
        stdout = truncate_output(raw_stdout, KILL_TAIL_LINES, token_limit) if raw_stdout else ""
        stderr = truncate_output(raw_stderr, KILL_TAIL_LINES, token_limit) if raw_stderr else ""
        if stdout:
            parts += ["", "--- stdout (last output) ---", stdout]
        if stderr:
            parts += ["", "--- stderr (last output) ---", stderr]
    return "\n".join(parts)


kill_process_tool = Tool(KILL_PROCESS, DESCRIPTION, INPUT_SCHEMA, execute, sandbox_to_model_output)
