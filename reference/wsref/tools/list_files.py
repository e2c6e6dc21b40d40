"""mastra_workspace_list_files (upstream `tools/list-files.ts`): a tab-indented tree of a directory, capped at 1000 tokens by default."""
from __future__ import annotations

from ..js.strings import js_trim
from .helpers import emit_workspace_metadata
from .tracing import start_workspace_span
from .base import Tool, ToolContext
from .output_helpers import apply_token_limit
from .tree_formatter import format_as_tree

LIST_FILES = "mastra_workspace_list_files"
DEFAULT_MAX_OUTPUT_TOKENS = 1000

DESCRIPTION = """List files and directories in the workspace filesystem.
Returns a compact tab-indented listing for efficient token usage.
Options mirror common tree command flags for familiarity.

Examples:
- List workspace root: { path: "." }
- Deep listing: { path: "src", maxDepth: 5 }
- Directories only: { path: ".", dirsOnly: true }
- Exclude node_modules: { path: ".", exclude: "node_modules" }
- Find TypeScript files: { path: "src", pattern: "**/*.ts" }
- Find config files: { path: ".", pattern: "*.config.{js,ts}" }
- Multiple patterns: { path: ".", pattern: ["**/*.ts", "**/*.tsx"] }

To list ALL files, omit the pattern parameter — do NOT pass pattern: "*"."""

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "path": {"default": ".", "description": "Directory path to list", "type": "string"},
        "maxDepth": {"default": 2, "description": "Maximum depth to descend (default: 2). Similar to tree -L flag.",
                     "type": "number"},
        "showHidden": {"default": False, "description": (
            'Show hidden files starting with "." (default: false). Similar to tree -a flag.'), "type": "boolean"},
        "dirsOnly": {"default": False, "description": (
            "List directories only, no files (default: false). Similar to tree -d flag."), "type": "boolean"},
        "exclude": {"description": 'Pattern to exclude (e.g., "node_modules"). Similar to tree -I flag.',
                    "type": "string"},
        "extension": {"description": 'Filter by file extension (e.g., ".ts"). Similar to tree -P flag.',
                      "type": "string"},
        "pattern": {"description": (
            'Glob pattern(s) to filter files. Omit this parameter to list all files (do NOT pass "*"). Use '
            '"**/*.ext" to match files recursively across directories. "*" only matches within a single directory '
            "level (standard glob). Glob patterns only filter files — directories are always shown to preserve "
            'tree structure. Examples: "**/*.ts", "src/**/*.test.ts", "*.config.{js,ts}".'),
            "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
        "respectGitignore": {"default": True, "description": (
            "Respect .gitignore in the listed directory (default: true)."), "type": "boolean"},
    },
    "additionalProperties": False,
}


def normalize_pattern(pattern):
    """Empty or blank patterns (JS trim) count as absent, alone or inside an array."""
    if pattern is None:
        return None
    if isinstance(pattern, list):
        cleaned = [p for p in pattern if isinstance(p, str) and len(js_trim(p)) > 0]
        return cleaned or None
    return pattern if len(js_trim(pattern)) > 0 else None


def execute(args: dict, ctx: ToolContext):
    workspace = ctx.workspace
    fs = workspace.require_filesystem()
    emit_workspace_metadata(ctx, LIST_FILES)
    path = args.get("path", ".")
    max_depth = args.get("maxDepth", 2)
    pattern = normalize_pattern(args.get("pattern"))
    span = start_workspace_span(ctx, workspace, "filesystem", "listFiles",
                                {"path": path, "maxDepth": max_depth, "pattern": pattern},
                                {"filesystemProvider": fs.provider})
    try:
        result = format_as_tree(
            fs, path,
            maxDepth=max_depth,
            showHidden=args.get("showHidden"),
            dirsOnly=args.get("dirsOnly"),
            exclude=args.get("exclude") or None,
            extension=args.get("extension") or None,
            pattern=pattern,
            respectGitignore=args.get("respectGitignore"),
            logger=getattr(workspace, "logger", None),
        )
        limit = workspace.tool_config(LIST_FILES).get("maxOutputTokens")
        output = apply_token_limit(f"{result.tree}\n\n{result.summary}",
                                   DEFAULT_MAX_OUTPUT_TOKENS if limit is None else limit, keep="start")
    except Exception as exc:
        span.error(exc)
        raise
    span.end({"success": True}, {"resultCount": result.fileCount})
    return output


TOOL = Tool(LIST_FILES, DESCRIPTION, INPUT_SCHEMA, execute)
