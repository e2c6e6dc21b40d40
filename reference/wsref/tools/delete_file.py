"""mastra_workspace_delete (upstream `tools/delete-file.ts`)."""
from __future__ import annotations

from ..errors import WorkspaceReadOnlyError
from .helpers import emit_workspace_metadata
from .tracing import start_workspace_span
from .base import Tool, ToolContext

DELETE = "mastra_workspace_delete"

DESCRIPTION = "Delete a file or directory from the workspace filesystem"

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "The path to the file or directory to delete"},
        "recursive": {"default": False, "description": (
            "If true, delete directories and their contents recursively. Required for non-empty directories."),
            "type": "boolean"},
    },
    "required": ["path"],
    "additionalProperties": False,
}


def execute(args: dict, ctx: ToolContext) -> str:
    fs = ctx.workspace.require_filesystem()
    emit_workspace_metadata(ctx, DELETE)
    path, recursive = args["path"], bool(args.get("recursive", False))
    span = start_workspace_span(ctx, ctx.workspace, "filesystem", "delete",
                                {"path": path, "recursive": args.get("recursive")}, {"filesystemProvider": fs.provider})
    try:
        if fs.readOnly:
            raise WorkspaceReadOnlyError("delete")
        stat = fs.stat(path)  # follows symlinks: a link to a directory is removed as a directory
        if stat.type == "directory":
            fs.rmdir(path, recursive=recursive, force=recursive)
        else:
            fs.delete_file(path)
    except Exception as exc:
        span.error(exc)
        raise
    span.end({"success": True})
    return f"Deleted {path}"


TOOL = Tool(DELETE, DESCRIPTION, INPUT_SCHEMA, execute)
