"""mastra_workspace_write_file (upstream `tools/write-file.ts`)."""
from __future__ import annotations

from ..errors import WorkspaceReadOnlyError
from ..filesystem.local_filesystem import js_utf8
from .helpers import emit_workspace_metadata, get_edit_diagnostics_text
from .tracing import start_workspace_span
from ..js.strings import js_length
from .base import Tool, ToolContext

WRITE_FILE = "mastra_workspace_write_file"

DESCRIPTION = "Write content to a file in the workspace filesystem. Creates parent directories if needed."

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": 'The path where to write the file (e.g., "data/output.txt")'},
        "content": {"type": "string", "description": "The content to write to the file"},
        "overwrite": {"default": True, "description": "Whether to overwrite the file if it already exists",
                      "type": "boolean"},
    },
    "required": ["path", "content"],
    "additionalProperties": False,
}


def utf8_byte_length(text: str) -> int:
    """Buffer.byteLength(text, 'utf-8'): a lone surrogate counts as the three bytes of U+FFFD."""
    if text.isascii():  # O(1): one byte per character, no second 5 MB encode after the write's
        return len(text)
    return len(js_utf8(text))


def execute(args: dict, ctx: ToolContext) -> str:
    fs = ctx.workspace.require_filesystem()
    emit_workspace_metadata(ctx, WRITE_FILE)
    path, content = args["path"], args["content"]
    span = start_workspace_span(ctx, ctx.workspace, "filesystem", "writeFile",
                                {"path": path, "overwrite": args.get("overwrite"), "contentLength": js_length(content)},
                                {"filesystemProvider": fs.provider})
    try:
        size = _write(fs, path, content, args, ctx)
    except Exception as exc:
        span.error(exc)
        raise
    output = f"Wrote {size} bytes to {path}" + get_edit_diagnostics_text(ctx.workspace, path, content)  # never throws
    span.end({"success": True}, {"bytesTransferred": size})
    return output


def _write(fs, path, content, args: dict, ctx: ToolContext) -> int:
    """Writes the file; the UTF-8 byte count the message and the span report."""
    if fs.readOnly:
        raise WorkspaceReadOnlyError("write_file")
    # The string itself, as the upstream passes it: LocalFilesystem's 'Writing file' debug line
    # reports its length in UTF-16 units (a pre-encoded buffer would report its bytes instead).
    # The read tracker (write mode) hands over the mtime recorded at the last read, if any.
    fs.write_file(path, content, overwrite=args.get("overwrite"), expectedMtime=ctx.extra.get("expected_mtime"))
    return utf8_byte_length(content)


TOOL = Tool(WRITE_FILE, DESCRIPTION, INPUT_SCHEMA, execute)
