"""mastra_workspace_search (upstream `tools/search.ts`): BM25, vector or hybrid search of the index.

The search tool shown to the model lists only the modes the workspace supports (`mode` enum), but
execution validates against the tool's original schema (all three modes), as upstream, where
the dynamic tool replaces `inputSchema` on a copy while createTool's execute keeps validating
against the schema it was built with. An unsupported mode then falls back (hybrid -> vector ->
bm25), and the output names the mode used.
"""
from __future__ import annotations

from .base import Tool, ToolContext
from .helpers import _require_workspace, emit_workspace_metadata

SEARCH = "mastra_workspace_search"

SEARCH_DESCRIPTION = ("Search indexed content in the workspace. Supports keyword (BM25), semantic (vector), "
                      "and hybrid search modes.")

_DRAFT7 = "http://json-schema.org/draft-07/schema#"


def search_schema(modes: list[str], mode_description: str) -> dict:
    return {
        "$schema": _DRAFT7,
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "The search query string"},
            "topK": {"default": 5, "description": "Maximum number of results to return", "type": "number"},
            "mode": {"description": mode_description, "type": "string", "enum": modes},
            "minScore": {"description": "Minimum score threshold (0-1 for normalized scores)", "type": "number"},
        },
        "required": ["query"],
        "additionalProperties": False,
    }


# The schema execute validates against (searchInputSchema).
SEARCH_SCHEMA = search_schema(
    ["bm25", "vector", "hybrid"],
    "Search mode: bm25 for keyword search, vector for semantic search, hybrid for both combined")


def execute_search(args: dict, ctx: ToolContext) -> str:
    ws = _require_workspace(ctx)
    emit_workspace_metadata(ctx, SEARCH)
    mode = args.get("mode")
    if mode == "hybrid" and not ws.can_hybrid:
        effective = "vector" if ws.can_vector else "bm25"
    elif mode == "vector" and not ws.can_vector:
        effective = "bm25"
    else:
        effective = mode or ("hybrid" if ws.can_hybrid else "vector" if ws.can_vector else "bm25")
    results = ws.search(args["query"], {"topK": args.get("topK"), "mode": effective, "minScore": args.get("minScore")})
    lines = []
    for r in results:
        line_info = f":{r['lineRange']['start']}-{r['lineRange']['end']}" if r.get("lineRange") else ""
        lines.append(f"{r['id']}{line_info}: {r['content']}")
    lines.append("---")
    lines.append(f"{len(results)} result{'' if len(results) == 1 else 's'} ({effective} search)")
    return "\n".join(lines)


def search_tool_for(workspace) -> Tool:
    """The search tool as the model sees it: `mode` restricted to the modes the workspace has."""
    modes = [m for m, ok in (("bm25", workspace.can_bm25), ("vector", workspace.can_vector),
                             ("hybrid", workspace.can_hybrid)) if ok]
    return Tool(SEARCH, SEARCH_DESCRIPTION, SEARCH_SCHEMA, execute_search,
                shown_schema=search_schema(modes, "Search mode: " + ", ".join(modes)))

