"""mastra_workspace_file_stat (upstream `tools/file-stat.ts`)."""
from __future__ import annotations

from ..errors import FileNotFoundError_
from ..filesystem.local_filesystem import iso
from .helpers import emit_workspace_metadata
from .tracing import start_workspace_span
from .base import Tool, ToolContext

FILE_STAT = "mastra_workspace_file_stat"

DESCRIPTION = ("Get file or directory metadata from the workspace. Returns existence, type, size, and "
               "modification time.")

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "The path to check"},
    },
    "required": ["path"],
    "additionalProperties": False,
}


def execute(args: dict, ctx: ToolContext) -> str:
    fs = ctx.workspace.require_filesystem()
    emit_workspace_metadata(ctx, FILE_STAT)
    path = args["path"]
    span = start_workspace_span(ctx, ctx.workspace, "filesystem", "stat", {"path": path},
                                {"filesystemProvider": fs.provider})
    try:
        stat = fs.stat(path)
        parts = [path, f"Type: {stat.type}"]
        if stat.size is not None:
            parts.append(f"Size: {stat.size} bytes")
        parts.append(f"Modified: {iso(stat.modifiedAt)}")
    except FileNotFoundError_:
        span.end({"success": False})
        return f"{path}: not found"  # only a missing path is text; other failures are thrown
    except Exception as exc:
        span.error(exc)
        raise
    span.end({"success": True}, {"bytesTransferred": stat.size})
    return " ".join(parts)


TOOL = Tool(FILE_STAT, DESCRIPTION, INPUT_SCHEMA, execute)
