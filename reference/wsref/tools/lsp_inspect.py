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


def _get(value, key):
    """`value?.key` on parsed JSON: None (undefined) unless value is an object."""
    return value.get(key) if isinstance(value, dict) else None


def _as_list(raw) -> list:
    """client.queryDefinition / queryImplementation: the array, a lone Location with a uri, else []."""
    if not raw:
        return []
    return raw if isinstance(raw, list) else [raw] if _get(raw, "uri") else []


def _locations(items: list) -> list[dict]:
    """Location / LocationLink results as {path, line, character} (1-based); non-file URIs dropped.
    A null entry throws as `loc.uri` does in JS (the whole query fails)."""
    out = []
    for loc in items:
        if loc is None:
            raise TypeError("Cannot read properties of null (reading 'uri')")
        uri = _get(loc, "uri")
        if uri is None:
            uri = _get(loc, "targetUri")
        rng = _get(loc, "range")
        if rng is None:
            rng = _get(loc, "targetRange")
        if not uri or not str(uri).startswith("file://"):
            continue
        path = diagnostics_key(str(uri))
        if path == str(uri):
            continue  # fileURLToPath refused it
        start = _get(rng, "start")
        line, character = _get(start, "line"), _get(start, "character")
        out.append({"path": path, "line": (0 if line is None else line) + 1,
                    "character": (0 if character is None else character) + 1})
    return out


def _kind(markup: dict):
    """`markup.kind ?? 'markdown'`: only a missing or null kind is markdown ("" stays)."""
    kind = markup.get("kind")
    return "markdown" if kind is None else kind


def _diagnostic_line(d) -> int:
    """`typeof d.line === 'number' ? d.line : (d.range?.start?.line ?? -1) + 1`."""
    line = _get(d, "line")
    if isinstance(line, (int, float)) and not isinstance(line, bool):
        return line
    start_line = _get(_get(_get(d, "range"), "start"), "line")
    return (-1 if start_line is None else start_line) + 1


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
                    result["hover"] = {"value": first["value"], "kind": _kind(first)}
            elif isinstance(contents, dict) and contents.get("value"):
                result["hover"] = {"value": contents["value"], "kind": _kind(contents)}

        def located(method: str, message: str) -> list:
            """The request's locations, [] when it fails (`.catch(() => [])`); mapped later."""
            try:
                return _as_list(client.query(method, uri, position, QUERY_TIMEOUT_MS, message))
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
                   if _diagnostic_line(d) == line]
        if on_line:
            result["diagnostics"] = on_line
        definitions = [d for d in _locations(definitions) if not (d["path"] == absolute and d["line"] == line)]
        if definitions:
            result["definition"] = [{"location": f"{_compress(d['path'])}:L{d['line']}:C{d['character']}",
                                     "preview": _line_preview(d["path"], d["line"])} for d in definitions]
        seen = {f"{d['path']}:L{d['line']}" for d in definitions}
        implementations = [d for d in _locations(implementations) if f"{d['path']}:L{d['line']}" not in seen
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
