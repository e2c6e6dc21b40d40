"""mastra_workspace_index (upstream `tools/index-content.ts`): add a document to the workspace's search index."""
from __future__ import annotations

from .base import Tool, ToolContext
from .helpers import _require_workspace, emit_workspace_metadata

_DRAFT7 = "http://json-schema.org/draft-07/schema#"


INDEX = "mastra_workspace_index"


INDEX_DESCRIPTION = "Index content for search. The path becomes the document ID in search results."


INDEX_SCHEMA = {
    "$schema": _DRAFT7,
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "The document ID/path for search results"},
        "content": {"type": "string", "description": "The text content to index"},
        "metadata": {"description": "Optional metadata to store with the document", "type": "object",
                     "propertyNames": {"type": "string"}, "additionalProperties": {}},
    },
    "required": ["path", "content"],
    "additionalProperties": False,
}


def execute_index(args: dict, ctx: ToolContext) -> str:
    ws = _require_workspace(ctx)
    emit_workspace_metadata(ctx, INDEX)
    ws.index(args["path"], args["content"], {"metadata": args.get("metadata")})
    return f"Indexed {args['path']}"


INDEX_TOOL = Tool(INDEX, INDEX_DESCRIPTION, INDEX_SCHEMA, execute_index)
