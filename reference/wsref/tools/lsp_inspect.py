"""mastra_workspace_lsp_inspect (upstream `tools/lsp-inspect.ts`): hover, the line's diagnostics,
definition and implementation at a `<<<` cursor, from the workspace's LSP manager. Built only
when the workspace has one. Its answers are objects, failures included ({error}).
"""
from __future__ import annotations

import os
import posixpath

from ..js.strings import js_trim
from ..lsp.client import diagnostics_key
from .base import Tool, ToolContext
from .helpers import _require_workspace, emit_workspace_metadata
from .tracing import start_workspace_span

LSP_INSPECT = "mastra_workspace_lsp_inspect"
CURSOR_MARKER = "<<<"
QUERY_TIMEOUT_MS = 5000

DESCRIPTION = (
    "Inspect code at a specific symbol position using the Language Server Protocol. "
    "Provide an absolute file path, a 1-indexed line number, and the exact line content with <<< marking the cursor "
    "position. Exactly one <<< marker is required. Returns hover information, any diagnostics reported on that line, "
    "plus definition and implementation locations when available. Use this for type information, symbol navigation, "
    "and go-to-definition; use view to read the surrounding implementation.")

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "Absolute path to the file"},
        "line": {"type": "integer", "exclusiveMinimum": 0, "maximum": 9007199254740991,
                 "description": "Line number (1-indexed)"},
        "match": {"type": "string", "description": (
            "Line content with <<< marking the cursor position. Exactly one <<< marker is required. "
            'Example: "const foo = <<<bar()" means cursor is at bar')},
    },
    "required": ["path", "line", "match"],
    "additionalProperties": False,
}


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            return f.read()
    except OSError:
        return None


def _line_preview(path: str, line: int) -> str | None:
    content = _read(path)
    if content is None:
        return None
    lines = content.split("\n")
    return js_trim(lines[line - 1]) if 0 < line <= len(lines) else None


def _compress(path: str) -> str:
    """The process's working directory as $cwd."""
    cwd = os.getcwd()
    return "$cwd" + path[len(cwd):] if path.startswith(cwd) else path


def _locations(raw) -> list[dict]:
    """Location / LocationLink results as {path, line, character} (1-based); non-file URIs dropped."""
    if not raw:
        return []
    items = raw if isinstance(raw, list) else [raw] if isinstance(raw, dict) and raw.get("uri") else []
    out = []
    for loc in items:
        uri = loc.get("uri", loc.get("targetUri"))
        rng = loc.get("range", loc.get("targetRange")) or {}
        if not uri or not str(uri).startswith("file://"):
            continue
        path = diagnostics_key(str(uri))
        if path == str(uri):
            continue  # fileURLToPath refused it
        start = rng.get("start") or {}
        out.append({"path": path, "line": (start.get("line") or 0) + 1, "character": (start.get("character") or 0) + 1})
    return out


def _severity(value) -> str:
    if isinstance(value, bool):
        return "error"
    if isinstance(value, (int, float)):
        return {1: "error", 2: "warning", 3: "info"}.get(value, "hint")
    return value if isinstance(value, str) else "error"


def execute(args: dict, ctx: ToolContext) -> dict:
    workspace = _require_workspace(ctx)
    emit_workspace_metadata(ctx, LSP_INSPECT)
    file_path, line, match = args["path"], args["line"], args["match"]
    span = start_workspace_span(ctx, workspace, "filesystem", "lspInspect", {"path": file_path, "line": line}, {})
    positions, start = [], 0
    while True:
        pos = match.find(CURSOR_MARKER, start)
        if pos == -1:
            break
        positions.append(pos)
        start = pos + len(CURSOR_MARKER)
    if not positions:
        span.end({"success": False})
        return {"error": "No <<< cursor marker found in match"}
    if len(positions) > 1:
        span.end({"success": False})
        return {"error": f"Multiple <<< markers found (found {len(positions)}, expected 1)"}
    manager = workspace.lsp
    if manager is None:
        span.end({"success": False})
        return {"error": "LSP is not configured for this workspace. Enable LSP in workspace config to use this tool."}
    fs = workspace.filesystem
    resolve = getattr(fs, "resolve_absolute_path", None) if fs is not None else None
    absolute = (resolve(file_path) if resolve is not None else None) or (
        file_path if posixpath.isabs(file_path) else posixpath.normpath(posixpath.join(manager.root, file_path)))
    file_content = _read(absolute) or ""
    try:
        query = manager.prepare_query(absolute)
    except Exception as exc:
        span.end({"success": False})
        return {"error": f"Failed to initialize LSP client: {exc}"}
    if query is None:
        span.end({"success": False})
        return {"error": f"No language server available for files of this type: {file_path}"}
    client, uri = query["client"], query["uri"]
    position = {"line": line - 1, "character": positions[0]}
    result: dict = {}
    try:
        try:
            hover = client.query("textDocument/hover", uri, position, QUERY_TIMEOUT_MS, "Hover request timed out")
        except Exception:
            hover = None
        contents = hover.get("contents") if isinstance(hover, dict) else None
        if contents:
            if isinstance(contents, str):
                result["hover"] = {"value": contents, "kind": "plaintext"}
            elif isinstance(contents, list):
                first = contents[0] if contents else None
                if isinstance(first, str):
                    result["hover"] = {"value": first, "kind": "plaintext"}
                elif isinstance(first, dict) and first.get("value"):
                    result["hover"] = {"value": first["value"], "kind": first.get("kind") or "markdown"}
            elif isinstance(contents, dict) and contents.get("value"):
                result["hover"] = {"value": contents["value"], "kind": contents.get("kind") or "markdown"}

        def located(method: str, message: str) -> list:
            try:
                return _locations(client.query(method, uri, position, QUERY_TIMEOUT_MS, message))
            except Exception:
                return []
        definitions = located("textDocument/definition", "Definition request timed out")
        implementations = located("textDocument/implementation", "Implementation request timed out")
        diagnostics = []
        if file_content:  # a change after the open, then the next publication
            try:
                client.notify_change(absolute, file_content, 1)
                diagnostics = client.wait_for_diagnostics(absolute, QUERY_TIMEOUT_MS, True)
            except Exception:
                diagnostics = []
        on_line = [{"severity": _severity(d.get("severity")), "message": d.get("message"), "source": d.get("source")}
                   for d in diagnostics or []
                   if (d.get("line") if isinstance(d.get("line"), int) and not isinstance(d.get("line"), bool)
                       else (((d.get("range") or {}).get("start") or {}).get("line", -1)) + 1) == line]
        if on_line:
            result["diagnostics"] = on_line
        definitions = [d for d in definitions if not (d["path"] == absolute and d["line"] == line)]
        if definitions:
            result["definition"] = [{"location": f"{_compress(d['path'])}:L{d['line']}:C{d['character']}",
                                     "preview": _line_preview(d["path"], d["line"])} for d in definitions]
        seen = {f"{d['path']}:L{d['line']}" for d in definitions}
        implementations = [d for d in implementations if f"{d['path']}:L{d['line']}" not in seen
                           and not (d["path"] == absolute and d["line"] == line)]
        if implementations:
            result["implementation"] = [f"{_compress(d['path'])}:L{d['line']}:C{d['character']}"
                                        for d in implementations]
    except Exception as exc:
        result["error"] = f"LSP query failed: {exc}"
    finally:
        client.notify_close(absolute)
        query["release"]()
    span.end({"success": "error" not in result})
    return result


TOOL = Tool(LSP_INSPECT, DESCRIPTION, INPUT_SCHEMA, execute)
