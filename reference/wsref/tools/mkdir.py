"""mastra_workspace_mkdir (upstream `tools/mkdir.ts`)."""
from __future__ import annotations

from ..errors import WorkspaceReadOnlyError
from .helpers import emit_workspace_metadata
from .tracing import start_workspace_span
from .base import Tool, ToolContext

MKDIR = "mastra_workspace_mkdir"

DESCRIPTION = "Create a directory in the workspace filesystem"

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "The path of the directory to create"},
        "recursive": {"default": True, "description": "Whether to create parent directories if they do not exist",
                      "type": "boolean"},
    },
    "required": ["path"],
    "additionalProperties": False,
}


def execute(args: dict, ctx: ToolContext) -> str:
    fs = ctx.workspace.require_filesystem()
    emit_workspace_metadata(ctx, MKDIR)
    path = args["path"]
    span = start_workspace_span(ctx, ctx.workspace, "filesystem", "mkdir",
                                {"path": path, "recursive": args.get("recursive")}, {"filesystemProvider": fs.provider})
    try:
        if fs.readOnly:
            raise WorkspaceReadOnlyError("mkdir")
        fs.mkdir(path, recursive=args.get("recursive", True))
    except Exception as exc:
        span.error(exc)
        raise
    span.end({"success": True})
    return f"Created directory {path}"


TOOL = Tool(MKDIR, DESCRIPTION, INPUT_SCHEMA, execute)
