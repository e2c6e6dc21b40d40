"""mastra_workspace_read_file (upstream `tools/read-file.ts`)."""
from __future__ import annotations

import json
import re

from ..errors import JsError
from ..filesystem.fs_utils import is_text_like
from ..line_utils import extract_lines, extract_lines_from_file, format_with_line_numbers
from .helpers import emit_workspace_metadata
from .tracing import start_workspace_span
from .base import Tool, ToolContext
from .media import media_result, media_to_model_output
from .output_helpers import apply_token_limit

READ_FILE = "mastra_workspace_read_file"
MAX_SAFE_INTEGER = 9007199254740991  # zod's int() bound, which the JSON Schema carries
DEFAULT_MEDIA_TYPES = ["image/png", "image/jpeg", "image/webp", "application/pdf"]
DEFAULT_MAX_MEDIA_BYTES = 10 * 1024 * 1024
_MEDIA_PATTERN = re.compile(r"^(?:\*|\*/\*|[a-z0-9!#$&^_.+-]+/(?:\*|[a-z0-9!#$&^_.+-]+))$", re.I)

DESCRIPTION = (
    "Read a file from the workspace filesystem. Text files come back as text — use offset/limit to read "
    "a line range from large files. Supported media files come back as a native file part you can view "
    "directly. Other binary files return only their metadata (path, size, mime type) since their raw "
    "contents are not useful to read."
)

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": 'The path to the file to read (e.g., "data/config.json")'},
        "offset": {"type": "integer", "minimum": 1, "maximum": MAX_SAFE_INTEGER, "description": (
            "Line number to start reading from (1-indexed). Only used when reading text files; ignored for "
            "media and other binary files. Defaults to line 1 if omitted.")},
        "limit": {"type": "integer", "minimum": 1, "maximum": MAX_SAFE_INTEGER, "description": (
            "Maximum number of lines to read. Only used when reading text files; ignored for media and other "
            "binary files. Defaults to the end of the file if omitted.")},
        "showLineNumbers": {"default": True, "type": "boolean", "description": (
            "Prefix each line with its line number. Only used when reading text files; ignored for media and "
            "other binary files. Defaults to true if omitted.")},
        "encoding": {"type": "string", "enum": ["utf-8", "utf8", "base64", "hex", "binary"], "description": (
            "Usually omit this — text files and supported media are handled automatically. Pass `base64` or "
            "`hex` to get the file's raw bytes encoded as text when you need to inspect an unsupported binary "
            "file that would otherwise only return metadata (e.g. checking a file header or magic bytes).")},
    },
    "required": ["path"],
    "additionalProperties": False,
}


def media_check(config):
    """The mediaTypes option as a predicate: a list of patterns, a function, or False."""
    if config is False:
        return lambda mime: False
    if callable(config):
        return lambda mime: bool(mime) and bool(config(mime))
    patterns = DEFAULT_MEDIA_TYPES if config is None else config
    for p in patterns:
        if not isinstance(p, str) or not _MEDIA_PATTERN.match(p):
            raise JsError(f"Invalid `mediaTypes` pattern: {json.dumps(p)}. Expected `*`, `*/*`, "
                             "`type/*`, or a full mime type like `application/pdf`.")

    def check(mime):
        if not mime:
            return False
        for p in patterns:
            if p in ("*", "*/*") or (p.endswith("/*") and mime.startswith(p[:-1])) or mime == p:
                return True
        return False
    return check


def execute(args: dict, ctx: ToolContext):
    fs = ctx.workspace.require_filesystem()
    emit_workspace_metadata(ctx, READ_FILE)
    span = start_workspace_span(ctx, ctx.workspace, "filesystem", "readFile",
                                {k: args.get(k) for k in ("path", "encoding", "offset", "limit")},
                                {"filesystemProvider": fs.provider})
    try:
        output, transferred = _read(args, ctx, fs)
    except Exception as exc:
        span.error(exc)
        raise
    span.end({"success": True}, {"bytesTransferred": transferred})
    return output


def _read(args: dict, ctx: ToolContext, fs):
    """The output and the bytes it carries (0 for a metadata-only answer), for the span."""
    path = args["path"]
    encoding = args.get("encoding")
    offset, limit = args.get("offset"), args.get("limit")
    stat = fs.stat(path)
    config = ctx.workspace.tool_config(READ_FILE)
    if media_check(config.get("mediaTypes"))(stat.mimeType):
        max_bytes = config.get("maxMediaBytes", DEFAULT_MAX_MEDIA_BYTES)
        if stat.size <= max_bytes:
            data = fs.read_file(path, "base64")
            return media_result(f"{stat.path} ({stat.size} bytes, {stat.mimeType})", stat.mimeType, data), stat.size
        if not encoding:
            return (f"{stat.path} ({stat.size} bytes, {stat.mimeType}) — exceeds maxMediaBytes ({max_bytes}). "
                    "Returning metadata only; configure `maxMediaBytes` on the read_file tool to raise this cap."), 0
    if not encoding and not is_text_like(stat.mimeType):
        return (f"{stat.path} ({stat.size} bytes, {stat.mimeType or 'unknown'}) — binary file not readable as "
                "text. Pass an explicit `encoding` (e.g. `base64`) to read the raw bytes, or configure "
                "`mediaTypes` on the read_file tool to surface it as a media part."), 0
    effective = encoding or "utf-8"
    token_limit = config.get("maxOutputTokens")
    if (offset is not None or limit is not None) and effective in ("utf-8", "utf8") and hasattr(fs, "open_read"):
        # A line window of a text file: streamed, so memory follows the window, not the file.
        part = _streamed_window(fs, path, effective, offset, limit)
        if part is not None:
            return _lines_output(args, stat, part, offset, limit, token_limit), stat.size
    content = fs.read_file(path, effective)
    if encoding and encoding not in ("utf-8", "utf8"):
        return apply_token_limit(f"{stat.path} ({stat.size} bytes, {effective})\n{content}", token_limit), stat.size
    if isinstance(content, bytes):  # a provider that hands back bytes for a UTF-8 read
        import base64
        return apply_token_limit(f"{stat.path} ({stat.size} bytes, base64)\n{base64.b64encode(content).decode()}",
                                 token_limit), stat.size
    return _lines_output(args, stat, extract_lines(content, offset, limit), offset, limit, token_limit), stat.size


def _streamed_window(fs, path, encoding, offset, limit):
    """extract_lines of the file's UTF-8 text, read in chunks; None when reading fails midway
    (the whole-file read then raises the error read_file raises)."""
    with fs.open_read(path, encoding) as fh:
        try:
            return extract_lines_from_file(fh, offset, limit)
        except OSError:
            return None


def _lines_output(args, stat, part, offset, limit, token_limit):
    has_lines = part.start != 0 or part.end != 0
    body = format_with_line_numbers(part.content, part.start) if args.get("showLineNumbers", True) is not False and has_lines else part.content
    if offset is not None or limit is not None:
        header = f"{stat.path} (lines {part.start}-{part.end} of {part.total_lines}, {stat.size} bytes)"
    else:
        header = f"{stat.path} ({stat.size} bytes)"
    return apply_token_limit(f"{header}\n{body}", token_limit)


read_file_tool = Tool(READ_FILE, DESCRIPTION, INPUT_SCHEMA, execute, media_to_model_output)
