"""mastra_workspace_edit_file (upstream `tools/edit-file.ts`): exact string replacement, messages for no match / no unique match."""
from __future__ import annotations

from ..errors import WorkspaceReadOnlyError
from .helpers import emit_workspace_metadata, get_edit_diagnostics_text
from .tracing import start_workspace_span
from .write_file import utf8_byte_length
from .base import Tool, ToolContext

EDIT_FILE = "mastra_workspace_edit_file"

DESCRIPTION = (
    "Edit a file by replacing specific text. The old_string must match exactly and be unique in the file.\n"
    "\n"
    "Usage:\n"
    "- Read the file first to get the exact text to replace.\n"
    '- By default, read file output includes line number prefixes (e.g., "     1→"). Ensure you preserve the '
    "exact indentation as it appears AFTER the arrow. Never include any part of the line number prefix in "
    "old_string or new_string.\n"
    "- Include enough surrounding context (multiple lines) to make old_string unique. If it still isn't unique, "
    "include more lines.\n"
    "- Use replace_all only when intentionally replacing all occurrences."
)

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "The path to the file to edit"},
        "old_string": {"type": "string",
                       "description": "The exact text to find and replace. Must be unique in the file."},
        "new_string": {"type": "string", "description": "The text to replace old_string with"},
        "replace_all": {"default": False, "description": (
            "If true, replace all occurrences. If false (default), old_string must be unique."),
            "type": "boolean"},
    },
    "required": ["path", "old_string", "new_string"],
    "additionalProperties": False,
}

NOT_FOUND = "The specified text was not found. Make sure you use the exact text from the file."
BINARY = "Cannot edit binary files. Use the write file tool instead."


def not_unique(count: int) -> str:
    return (f"The specified text appears {count} times. Provide more surrounding context to make the match "
            "unique, or use replace_all to replace all occurrences.")


class _NoMatch(Exception):
    pass


def js_units(text: str) -> str:
    """The string as JavaScript holds it: one character per UTF-16 code unit.

    indexOf, split and replace work on code units upstream, so a lone surrogate in old_string can
    match half of an astral character. Writing the result back (js_utf8) pairs surrogates again and
    turns a lone one into U+FFFD.
    """
    # Only an astral character differs from its UTF-16 form. isascii() is O(1); the UTF-16 length
    # check is one C pass (max(text) walked the string a character object at a time: 30 ns/char).
    if not text or text.isascii():
        return text
    b16 = text.encode("utf-16-le", "surrogatepass")
    if len(b16) == 2 * len(text):
        return text
    # Each 16-bit unit widened to a 32-bit code point: surrogates come out as lone code points.
    b32 = bytearray(2 * len(b16))
    b32[0::4] = b16[0::2]
    b32[1::4] = b16[1::2]
    return b32.decode("utf-32-le", "surrogatepass")


def count_occurrences(content: str, needle: str) -> int:
    """Non-overlapping occurrences found left to right with indexOf; an empty needle counts zero."""
    return content.count(needle) if needle else 0


def edited_line_ranges(content: str, old: str, new: str, replace_all: bool) -> str:
    """The ' (lines a-b, c)' suffix: line ranges in the original content, each at least as tall as new_string."""
    if not old:
        return ""
    ranges = []
    position = content.find(old)
    new_line_count = new.count("\n") + 1
    # Line numbers counted incrementally (the indices only grow), not from 0 for each occurrence.
    counted_to, line = 0, 1

    def line_of(index: int) -> int:
        nonlocal counted_to, line
        line += content.count("\n", counted_to, index)
        counted_to = index
        return line

    while position != -1:
        start = line_of(position)
        end_line = line_of(max(0, position + max(len(old), 1) - 1))
        end = start + max(new_line_count, end_line - start + 1) - 1
        ranges.append(str(start) if end == start else f"{start}-{end}")
        if not replace_all:
            break
        position = content.find(old, position + len(old))
    if not ranges:
        return ""
    return f" (lines {', '.join(ranges)})"


def replace_string(content: str, old: str, new: str, replace_all: bool) -> tuple[str, int]:
    count = count_occurrences(content, old)
    if count == 0:
        raise _NoMatch(NOT_FOUND)
    if not replace_all and count > 1:
        raise _NoMatch(not_unique(count))
    # Literal replacement either way: upstream escapes `$` for String.replace and uses split/join for all.
    if replace_all:
        return content.replace(old, new), count
    return content.replace(old, new, 1), 1


def execute(args: dict, ctx: ToolContext) -> str:
    fs = ctx.workspace.require_filesystem()
    emit_workspace_metadata(ctx, EDIT_FILE)
    path = args["path"]
    old, new = js_units(args["old_string"]), js_units(args["new_string"])
    replace_all = bool(args.get("replace_all", False))
    span = start_workspace_span(ctx, ctx.workspace, "filesystem", "editFile",
                                {"path": path, "replace_all": args.get("replace_all")},
                                {"filesystemProvider": fs.provider})
    try:
        if fs.readOnly:
            raise WorkspaceReadOnlyError("edit_file")
        content = fs.read_file(path, "utf-8")
        if not isinstance(content, str):  # a provider that returns bytes for a UTF-8 read
            span.end({"success": False})
            return BINARY
        content = js_units(content)
        ranges = edited_line_ranges(content, old, new, replace_all)
        result, replacements = replace_string(content, old, new, replace_all)
        fs.write_file(path, result, overwrite=True, expectedMtime=ctx.extra.get("expected_mtime"))
    except _NoMatch as exc:  # StringNotFoundError / StringNotUniqueError: a text answer, not a throw
        span.end({"success": False})
        return str(exc)
    except Exception as exc:
        span.error(exc)
        raise
    plural = "" if replacements == 1 else "s"
    output = f"Replaced {replacements} occurrence{plural} in {path}{ranges}"
    output += get_edit_diagnostics_text(ctx.workspace, path, result)  # never throws
    span.end({"success": True}, {"bytesTransferred": utf8_byte_length(result)})
    return output


TOOL = Tool(EDIT_FILE, DESCRIPTION, INPUT_SCHEMA, execute)
