"""mastra_workspace_get_process_output (upstream `tools/get-process-output.ts`): the output and exit status of a background process."""
from __future__ import annotations

import time

from ..sandbox.errors import SandboxFeatureNotSupportedError
from .base import Tool, ToolContext
from .helpers import defined, dynamic_sandbox_hint, emit_workspace_metadata
from .output_helpers import DEFAULT_TAIL_LINES, sandbox_to_model_output, truncate_output

GET_PROCESS_OUTPUT = "mastra_workspace_get_process_output"

DESCRIPTION = """Get the current output (stdout, stderr) and status of a background process by its PID.

Use this after starting a background command with execute_command (background: true) to check if the process is still running and read its output."""

_SAFE_INT = 9007199254740991

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "pid": {"type": "string", "description": "The process ID returned when the background command was started"},
        "tail": {"description": (
            "Number of lines to return, similar to tail -n. Positive or negative returns last N lines from end. "
            f"Defaults to {DEFAULT_TAIL_LINES}. Use 0 for no limit."),
            "type": "integer", "minimum": -_SAFE_INT, "maximum": _SAFE_INT},
        "wait": {"description": (
            "If true, block until the process exits and return the final output. Useful for short-lived "
            "background commands where you want to wait for the result."), "type": "boolean"},
    },
    "required": ["pid"],
    "additionalProperties": False,
}


def execute(args: dict, ctx: ToolContext):
    workspace = ctx.workspace
    sandbox = workspace.require_sandbox()
    emit_workspace_metadata(ctx, GET_PROCESS_OUTPUT)
    pid, tail = args["pid"], args.get("tail")
    processes = getattr(sandbox, "processes", None)
    if processes is None:
        raise SandboxFeatureNotSupportedError("processes")
    handle = processes.get(pid)
    if handle is None:
        return f"No background process found with PID {pid}.{dynamic_sandbox_hint(workspace)}"
    call_id, writer = ctx.extra.get("toolCallId"), ctx.extra.get("writer")
    if writer is not None and handle.command:
        writer({"type": "data-sandbox-command", "data": defined({"command": handle.command, "pid": pid, "toolCallId": call_id})})
    if args.get("wait") and handle.exit_code is None:
        def stream(kind: str):
            if writer is None:
                return None
            return lambda data: writer({"type": f"data-sandbox-{kind}", "data": defined(
                {"output": data, "timestamp": int(time.time() * 1000), "toolCallId": call_id}), "transient": True})
        result = handle.wait(on_stdout=stream("stdout"), on_stderr=stream("stderr"),
                             abort_signal=ctx.extra.get("abortSignal"))
        if writer is not None:
            writer({"type": "data-sandbox-exit", "data": defined({
                "exitCode": result["exitCode"], "success": result["success"],
                "executionTimeMs": result["executionTimeMs"], "toolCallId": call_id})})
    exit_code, raw_stdout, raw_stderr = handle.snapshot()
    token_limit = workspace.tool_config(GET_PROCESS_OUTPUT).get("maxOutputTokens")
    stdout = truncate_output(raw_stdout, tail, token_limit)
    stderr = truncate_output(raw_stderr, tail, token_limit)
    if not stdout and not stderr:
        return "(no output yet)"
    if stdout and stderr:
        parts = ["stdout:", stdout, "", "stderr:", stderr]
    elif stdout:
        parts = [stdout]
    else:
        parts = ["stderr:", stderr]
    if exit_code is not None:
        parts += ["", f"Exit code: {exit_code}"]
    return "\n".join(parts)


get_process_output_tool = Tool(GET_PROCESS_OUTPUT, DESCRIPTION, INPUT_SCHEMA, execute, sandbox_to_model_output,
                               coerce_numeric=("tail",))
