"""mastra_workspace_execute_command (upstream `tools/execute-command.ts`): a shell command, foreground or background."""
from __future__ import annotations

import re
import time

from ..sandbox.errors import SandboxFeatureNotSupportedError
from .base import Tool, ToolContext
from .helpers import defined, emit_workspace_metadata
from .output_helpers import DEFAULT_TAIL_LINES, sandbox_to_model_output, truncate_output

EXECUTE_COMMAND = "mastra_workspace_execute_command"

BASE_DESCRIPTION = """Execute a shell command in the workspace sandbox.

Examples:
  "npm install && npm run build"
  "ls -la src/"
  "cat config.json | jq '.database'"
  "cd /app && python main.py"

Usage:
- Commands run in a shell, so pipes, redirects, and chaining (&&, ||, ;) all work.
- Always quote file paths that contain spaces (e.g., cd "/path/with spaces").
- Use the timeout parameter (in seconds) to limit execution time. Behavior when omitted depends on the sandbox provider.
- Optionally use cwd to override the working directory. Commands run from the sandbox's configured workingDirectory (or the provider default) if omitted."""

BACKGROUND_DESCRIPTION = BASE_DESCRIPTION + """

Set background: true to run long-running commands (dev servers, watchers) without blocking. You'll get a PID to track the process."""

_SAFE_INT = 9007199254740991

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "command": {"type": "string", "description": (
            'The shell command to execute (e.g., "npm install", "ls -la src/", "cat file.txt | grep error")')},
        "timeout": {"description": "Maximum execution time in seconds. Example: 60 for 1 minute.",
                    "type": ["number", "null"]},
        "cwd": {"description": "Working directory for the command", "type": ["string", "null"]},
        "tail": {"description": (
            f"For foreground commands: limit output to the last N lines, similar to tail -n. Defaults to "
            f"{DEFAULT_TAIL_LINES}. Use 0 for no limit."),
            "anyOf": [{"type": "integer", "minimum": -_SAFE_INT, "maximum": _SAFE_INT}, {"type": "null"}]},
    },
    "required": ["command"],
    "additionalProperties": False,
}

INPUT_SCHEMA_WITH_BACKGROUND = {
    **INPUT_SCHEMA,
    "properties": {
        **INPUT_SCHEMA["properties"],
        "background": {"description": (
            "Run the command in the background. Returns a PID immediately instead of waiting for completion. "
            "Use get_process_output to check on it later."), "type": "boolean"},
    },
}

# JS `\s` (WhiteSpace + LineTerminator), which differs from Python's.
_WS = "\t\n\x0b\x0c\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_TAIL_PIPE = re.compile(rf"\|[{_WS}]*tail[{_WS}]+(?:-n[{_WS}]+)?(-?[0-9]+)[{_WS}]*$")
_JS_TRIM = re.compile(rf"^[{_WS}]+|[{_WS}]+$")


def extract_tail_pipe(command: str) -> tuple[str, int | None]:
    """A trailing `| tail -N` / `| tail -n N` is cut off the command and becomes the tail value."""
    match = _TAIL_PIPE.search(command)
    if match:
        lines = abs(int(match.group(1)))
        if lines > 0:
            return _JS_TRIM.sub("", command[:match.start()]), lines
    return command, None


def format_command_output(stdout: str, stderr: str) -> list[str]:
    if stdout and stderr:
        return ["stdout:", stdout, "", "stderr:", stderr]
    if stdout:
        return [stdout]
    if stderr:
        return ["stderr:", stderr]
    return []


def append_terminal_line(parts: list[str], terminal: str) -> str:
    if not parts:
        return terminal
    output = "\n".join(parts)
    separator = "" if output.endswith("\n\n") else "\n" if output.endswith("\n") else "\n\n"
    return f"{output}{separator}{terminal}"


def execute(args: dict, ctx: ToolContext):
    workspace = ctx.workspace
    sandbox = workspace.require_sandbox()
    command, cwd, tail = args["command"], args.get("cwd"), args.get("tail")  # validation made tail an int
    timeout = args.get("timeout")
    timeout_ms = timeout * 1000 if timeout is not None else None
    background = args.get("background")

    if not background:
        command, extracted = extract_tail_pipe(command)
        if extracted is not None:
            tail = extracted

    emit_workspace_metadata(ctx, EXECUTE_COMMAND)
    call_id = ctx.extra.get("toolCallId")
    writer = ctx.extra.get("writer")
    token_limit = workspace.tool_config(EXECUTE_COMMAND).get("maxOutputTokens")

    if background:
        processes = getattr(sandbox, "processes", None)
        if processes is None:
            raise SandboxFeatureNotSupportedError("processes")
        bg = workspace.tool_config(EXECUTE_COMMAND).get("backgroundProcesses") or {}
        # abortSignal undefined: the call's signal; null / false: none. spawn wires it to kill the process.
        bg_abort = ctx.extra.get("abortSignal") if "abortSignal" not in bg else (bg["abortSignal"] or None)
        on_out, on_err, on_exit = bg.get("onStdout"), bg.get("onStderr"), bg.get("onExit")
        handle = processes.spawn(
            command, cwd=cwd or None, timeout_ms=timeout_ms, abort_signal=bg_abort,
            on_stdout=(lambda data, pid: on_out(data, {"pid": pid, "toolCallId": call_id})) if on_out else None,
            on_stderr=(lambda data, pid: on_err(data, {"pid": pid, "toolCallId": call_id})) if on_err else None,
            stdin_mode="ignore")
        if on_exit:  # fire and forget, after the process has finished; a failing callback is only logged
            def observe():
                result = handle.wait()
                try:
                    on_exit({"pid": handle.pid, "exitCode": result["exitCode"], "stdout": result["stdout"],
                             "stderr": result["stderr"], "stdoutTruncated": result["stdoutTruncated"],
                             "stderrTruncated": result["stderrTruncated"],
                             "stdoutDroppedBytes": result["stdoutDroppedBytes"],
                             "stderrDroppedBytes": result["stderrDroppedBytes"], "toolCallId": call_id})
                except Exception:
                    pass
            import threading
            threading.Thread(target=observe, daemon=True).start()
        return f"Started background process (PID: {handle.pid})"

    if not hasattr(sandbox, "execute_command"):
        raise SandboxFeatureNotSupportedError("executeCommand")
    started_at = time.time()

    def stream(kind: str):
        """Each chunk of output goes to the writer as it arrives: a transient data-sandbox-<kind> chunk."""
        if writer is None:
            return None
        return lambda data, pid=None: writer({"type": f"data-sandbox-{kind}",
                                    "data": defined({"output": data, "timestamp": int(time.time() * 1000),
                                                     "toolCallId": call_id}),
                                    "transient": True})
    try:
        result = sandbox.execute_command(command, timeout_ms=timeout_ms, cwd=cwd or None,
                                         on_stdout=stream("stdout"), on_stderr=stream("stderr"),
                                         abort_signal=ctx.extra.get("abortSignal"))
    except Exception as exc:  # nothing was streamed before a spawn failure
        if writer is not None:
            writer({"type": "data-sandbox-exit", "data": defined({
                "exitCode": -1, "success": False, "executionTimeMs": int((time.time() - started_at) * 1000),
                "toolCallId": call_id})})
        message = getattr(exc, "message", None) or str(exc)
        return append_terminal_line([], f"Error: {message}")
    if writer is not None:
        writer({"type": "data-sandbox-exit", "data": defined({
            "exitCode": result["exitCode"], "success": result["success"], "executionTimeMs": result["executionTimeMs"],
            "killed": result["killed"], "timedOut": result["timedOut"], "toolCallId": call_id})})
    parts = format_command_output(truncate_output(result["stdout"], tail, token_limit),
                                  truncate_output(result["stderr"], tail, token_limit))
    if not result["success"]:
        return append_terminal_line(parts, f"Exit code: {result['exitCode']}")
    return "\n".join(parts) or "(no output)"


execute_command_tool = Tool(EXECUTE_COMMAND, BASE_DESCRIPTION, INPUT_SCHEMA, execute, sandbox_to_model_output,
                            coerce_numeric=("timeout", "tail"))
execute_command_with_background_tool = Tool(EXECUTE_COMMAND, BACKGROUND_DESCRIPTION, INPUT_SCHEMA_WITH_BACKGROUND,
                                            execute, sandbox_to_model_output, coerce_numeric=("timeout", "tail"))
