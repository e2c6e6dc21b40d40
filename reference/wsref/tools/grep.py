"""mastra_workspace_grep (upstream `tools/grep.ts`): a regex search over the workspace's text files.

As @mastra/core 1.71.0 does it (tools/grep.ts) for a filesystem without native grep (the
LocalFilesystem): the pattern is a JavaScript RegExp with `g` (`gi` when case-insensitive), see
jsregex; the path is a file, a directory or a glob (static base + picomatch filter); the walk
reads each directory breadth first, skips hidden entries, `.git`, symlinked directories and what
the root `.gitignore` ignores, keeps files with a text extension, then reads the files eight at a
time and tests every line once (split on \\n only). The reference gets the same answers faster:
LocalFilesystem's files are read with containment decided once per directory
(LocalFilesystem.contained_reader), and each file is searched whole (js/regexp_lines), with only
the shown lines converted to UTF-16 units. Rows are `<path>:<line>:<column>: <text>`, both
1-based, the column in UTF-16 code units, the text cut to 500 units; context rows are
`<path>:<line>- <text>`, hunks separated by `--`. The summary goes first; read failures are
counted in it rather than thrown, unless the tool was built with strict=True.
"""
from __future__ import annotations

import math
import os

from ..errors import DirectoryNotFoundError, FileNotFoundError_, UnsupportedGrepPatternError
from ..filesystem.fs_utils import is_text_file
from ..filesystem.local_filesystem import LocalFilesystem, decode
from ..gitignore import load_gitignore
from ..glob import create_glob_matcher, extract_glob_base, is_glob_pattern
from ..js.regexp import JSRegExpSyntaxError, compile_js, from_units, to_units
from ..js.regexp_lines import LineSearch
from .helpers import emit_workspace_metadata
from .tracing import start_workspace_span
from .base import Tool, ToolContext
from .output_helpers import apply_token_limit

GREP = "mastra_workspace_grep"
CONCURRENCY = 8
MAX_PATTERN_LENGTH = 1000
MAX_LINE_LENGTH = 500
GLOBAL_CAP = 1000

DESCRIPTION = """Search file contents using a regex pattern. Walks the filesystem and returns matching lines with file paths and line numbers.

Usage:
- Basic search: { pattern: "TODO" }
- Regex: { pattern: "function\\s+\\w+\\(" }
- Multiple terms: { pattern: "TODO|FIXME|HACK" }
- Case-insensitive: { pattern: "error", caseSensitive: false }
- Search in directory: { pattern: "import", path: "./src" }
- Filter by glob: { pattern: "import", path: "**/*.ts" }
- Combined path + glob: { pattern: "import", path: "src/**/*.ts" }
- Multiple file types: { pattern: "import", path: "**/*.{ts,tsx,js}" }
- Multiple directories: { pattern: "TODO", path: "{src,lib}/**/*.ts" }
- With context: { pattern: "function", contextLines: 2 }"""

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "pattern": {"type": "string", "description": "Regex pattern to search for"},
        "path": {"type": "string", "default": ".", "description": (
            'File, directory, or glob pattern to search within (default: "."). '
            "A plain path searches that file or directory. "
            'A glob pattern (e.g., "**/*.ts", "src/**/*.test.ts") filters which files to search.')},
        "contextLines": {"type": "number", "default": 0, "description": (
            "Number of lines of context to include before and after each match (default: 0)")},
        "maxCount": {"type": "number", "description": (
            "Maximum matches per file. Moves on to the next file after this many matches. "
            "Similar to grep -m flag.")},
        "caseSensitive": {"type": "boolean", "default": True,
                          "description": "Whether the search is case-sensitive (default: true)"},
        "includeHidden": {"type": "boolean", "default": False, "description": (
            'Include hidden files and directories (names starting with ".") in the search (default: false)')},
    },
    "required": ["pattern"],
    "additionalProperties": False,
}


def _utf16_length(text: str) -> int:
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def _code(exc: BaseException):
    if isinstance(exc, (FileNotFoundError_, DirectoryNotFoundError)):
        return "ENOENT"
    return getattr(exc, "code", None)


def _join(directory: str, name: str) -> str:
    return f"{directory}{name}" if directory.endswith("/") else f"{directory}/{name}"


def _strip_dot_slash(path: str) -> str:
    return path[2:] if path.startswith("./") else path


def _sorted_entries(entries: list[dict]) -> list[dict]:
    """Node's fs.readdir order: libuv's scandir sorts names with strcmp (their bytes)."""
    return sorted(entries, key=lambda e: os.fsencode(e["name"]))


def _native_grep(ctx: ToolContext, fs, native_grep, options: dict, search_path: str):
    """A provider's native grep(); on a throw, None (the host-side search runs) and the log line."""
    try:
        return native_grep({k: v for k, v in options.items() if v is not None})
    except Exception as error:  # noqa: BLE001 - any failure falls back to the host-side search
        logger = getattr(ctx.workspace, "logger", None)
        provider = getattr(fs, "provider", "")
        if logger is None:
            return None
        if isinstance(error, UnsupportedGrepPatternError):
            logger.info(f'Native grep on "{provider}" filesystem does not support pattern "{options["pattern"]}"; '
                        "falling back to host-side search")
        else:
            logger.warn(f'Native grep failed on "{provider}" filesystem; falling back to host-side search for '
                        f'"{search_path}"', {"error": getattr(error, "message", None) or str(error)})
        return None


def _native_positions(matches: list[dict], line_text: dict[int, str]):
    """A native grep's matches as (line index, column), noting each line's text (and its context
    lines) as they are taken: emit_file measures and cuts in UTF-16 units."""
    for match in matches:
        line_index = match["line"] - 1
        line_text[line_index] = match["text"]
        before = match.get("before") or []
        for i, text in enumerate(before):
            line_text[line_index - len(before) + i] = text
        for i, text in enumerate(match.get("after") or []):
            line_text[line_index + 1 + i] = text
        yield line_index, match["column"]


def create_grep_tool(strict: bool = False) -> Tool:
    """createGrepTool({strict}): strict makes any read failure throw instead of being counted."""

    def execute(args: dict, ctx: ToolContext):
        fs = ctx.workspace.require_filesystem()
        emit_workspace_metadata(ctx, GREP)
        span = start_workspace_span(ctx, ctx.workspace, "filesystem", "grep",
                                    {"pattern": args["pattern"], "path": args.get("path", "."),
                                     "contextLines": args.get("contextLines", 0), "maxCount": args.get("maxCount")},
                                    {"filesystemProvider": fs.provider})
        try:
            output, total = search(args, ctx, fs)
        except Exception as exc:
            span.error(exc)
            raise
        if total is None:  # a refused pattern: a text answer, the span ends unsuccessful
            span.end({"success": False})
        else:
            span.end({"success": True}, {"resultCount": total})
        return output

    def search(args: dict, ctx: ToolContext, fs):
        """The output, and the match count (None for a pattern refused before searching)."""
        pattern: str = args["pattern"]
        input_path: str = args.get("path", ".")
        context_lines = args.get("contextLines", 0)
        max_count = args.get("maxCount")
        case_sensitive = args.get("caseSensitive", True)
        include_hidden = args.get("includeHidden", False)

        provider_is_text = getattr(fs, "is_text_file", None)
        is_text = provider_is_text if callable(provider_is_text) else is_text_file
        skipped_extension = 0
        skipped_read_error = 0
        target_not_found = False

        length = _utf16_length(pattern)
        if length > MAX_PATTERN_LENGTH:
            return f"Error: Pattern too long ({length} chars, max {MAX_PATTERN_LENGTH}). Use a shorter pattern.", None
        try:
            regex = compile_js(pattern, "g" if case_sensitive else "gi")
        except JSRegExpSyntaxError as exc:
            return f"Error: Invalid regex pattern: {exc.message}", None

        glob_matcher = None
        if is_glob_pattern(input_path):
            search_path = extract_glob_base(input_path)
            glob_matcher = create_glob_matcher(input_path, dot=include_hidden)
        else:
            search_path = input_path

        raw_ignore = load_gitignore(fs)
        search_normalized = _strip_dot_slash(search_path)
        search_normalized = search_normalized[:-1] if search_normalized.endswith("/") else search_normalized
        target_ignored = bool(raw_ignore) and bool(search_normalized) and raw_ignore(search_normalized + "/")
        ignore = None if target_ignored else raw_ignore

        normalized_context = max(0, math.floor(context_lines))

        file_paths: list[tuple[str, str | None, str | None]] = []  # (path, directory, name)
        native_results = None  # a provider's native grep() results, when it has one and it answered
        normalized_search = search_path[:-1] if search_path.endswith("/") else search_path
        if not (normalized_search == ".git" or normalized_search.endswith("/.git")):
            try:
                stat = fs.stat(search_path)
                if stat.type == "file":
                    if is_text(search_path):
                        file_paths = [(search_path, None, None)]
                    else:
                        skipped_extension += 1
                native_grep = getattr(fs, "grep", None)
                if stat.type != "file" and callable(native_grep):
                    native_results = _native_grep(ctx, fs, native_grep, {
                        "pattern": pattern, "path": search_path, "caseSensitive": case_sensitive,
                        "includeHidden": include_hidden, "maxCountPerFile": max_count,
                        "maxTotalMatches": GLOBAL_CAP, "contextLines": normalized_context}, search_path)
                if stat.type != "file" and native_results is None:
                    entries_by_dir: dict[str, list[dict]] = {}
                    # LocalFilesystem lists without the files' sizes (an lstat each), which grep never reads
                    readdir = (lambda d: fs.readdir(d, sizes=False)) if type(fs).readdir is LocalFilesystem.readdir \
                        else fs.readdir
                    frontier = [search_path]
                    while frontier:
                        listings = []
                        for directory in frontier:
                            try:
                                listings.append(_sorted_entries(readdir(directory)))
                            except Exception:
                                if strict:
                                    raise
                                skipped_read_error += 1
                                listings.append([])
                        next_frontier = []
                        for directory, entries in zip(frontier, listings):
                            entries_by_dir[directory] = entries
                            for entry in entries:
                                if entry["type"] != "directory" or entry.get("isSymlink") or entry["name"] == ".git":
                                    continue
                                if not include_hidden and entry["name"].startswith("."):
                                    continue
                                full = _join(directory, entry["name"])
                                if ignore and ignore(f"{_strip_dot_slash(full)}/"):
                                    continue
                                next_frontier.append(full)
                        frontier = next_frontier

                    def collect(directory: str) -> list[tuple[str, str, str]]:
                        files: list[tuple[str, str, str]] = []
                        for entry in entries_by_dir.get(directory, []):
                            name, kind = entry["name"], entry["type"]
                            if kind == "directory" and name == ".git":
                                continue
                            if not include_hidden and name.startswith("."):
                                continue
                            full = _join(directory, name)
                            if ignore:
                                relative = _strip_dot_slash(full)
                                if ignore(f"{relative}/" if kind == "directory" else relative):
                                    continue
                            if kind == "file":
                                if glob_matcher and not glob_matcher(full):
                                    continue
                                if not is_text(name):
                                    continue
                                files.append((full, directory, name))
                            elif kind == "directory" and not entry.get("isSymlink"):
                                files.extend(collect(full))
                        return files

                    file_paths = collect(search_path)
            except Exception as exc:
                if strict:
                    raise
                if _code(exc) in ("ENOENT", "ENOTDIR"):
                    target_not_found = True
                else:
                    skipped_read_error += 1
                file_paths = []

        rows: list[str] = []
        files_with_matches: set[str] = set()
        total = 0
        truncated = False
        emitted_hunk = False

        def emit_file(path: str, matches: list[tuple[int, int]], get_line) -> None:
            """Shared by the native results and the host-side search, as upstream; get_line(i) is
            the text (UTF-16 units) of a 0-based line index, or None when it is unavailable."""
            nonlocal emitted_hunk

            def cut(line: str) -> str:
                units = to_units(line)  # the 500-unit cut, and the column, count UTF-16 units
                if len(units) > MAX_LINE_LENGTH:
                    return from_units(units[:MAX_LINE_LENGTH]) + "..."
                return from_units(units)

            if normalized_context > 0:
                hunks: list[list] = []  # [start, end, {line index: column index}]
                for line_index, column in matches:
                    start = max(0, line_index - normalized_context)
                    end = line_index + normalized_context
                    if hunks and start <= hunks[-1][1] + 1:
                        hunks[-1][1] = max(hunks[-1][1], end)
                        hunks[-1][2][line_index] = column
                    else:
                        hunks.append([start, end, {line_index: column}])
                for start, end, by_line in hunks:
                    if emitted_hunk:
                        rows.append("--")
                    emitted_hunk = True
                    for i in range(start, end + 1):
                        line = get_line(i)
                        if line is None:
                            continue
                        column = by_line.get(i)
                        if column is not None:
                            rows.append(f"{path}:{i + 1}:{column + 1}: {cut(line)}")
                        else:
                            rows.append(f"{path}:{i + 1}- {from_units(to_units(line))}")
            else:
                for line_index, column in matches:
                    line = get_line(line_index)
                    rows.append(f"{path}:{line_index + 1}:{column + 1}: {cut('' if line is None else line)}")

        def take(path: str, positions) -> list[tuple[int, int]]:
            """One file's (line index, column) matches, within maxCount per file and the global cap."""
            nonlocal total, truncated
            kept: list[tuple[int, int]] = []
            for position in positions:
                files_with_matches.add(path)
                kept.append(position)
                total += 1
                if max_count is not None and len(kept) >= max_count:
                    break
                if total >= GLOBAL_CAP:
                    truncated = True
                    break
            return kept

        for result in native_results or []:
            if truncated:
                break
            rel = _strip_dot_slash(result["path"])
            segments = rel.split("/")
            if ".git" in segments:
                continue
            if not include_hidden and any(seg.startswith(".") for seg in segments):
                continue
            if not is_text(segments[-1]):
                continue
            full = f"{search_path}{rel}" if search_path.endswith("/") else f"{search_path}/{rel}"
            if ignore and ignore(_strip_dot_slash(full)):
                continue
            if glob_matcher and not glob_matcher(full):
                continue
            line_text: dict[int, str] = {}
            matches = take(full, _native_positions(result["matches"], line_text))
            emit_file(full, matches, line_text.get)

        # LocalFilesystem's own files are read with containment decided once per directory; any
        # other provider (or a file the reader leaves to it) goes through read_file, and so does a
        # LocalFilesystem whose read_file is wrapped or that has a logger (upstream's readFile of
        # each file logs 'Reading file' at debug).
        own = getattr(fs.read_file, "__func__", None) is LocalFilesystem.read_file
        reader = fs.contained_reader() if own and fs.logger is None else None
        search = LineSearch(regex)
        for batch_start in range(0, len(file_paths), CONCURRENCY):
            if truncated:
                break
            batch = file_paths[batch_start:batch_start + CONCURRENCY]
            contents: list[str | bytes | None] = []
            for path, directory, name in batch:  # all of a batch is read before any is searched
                data = reader.read(directory, name) if reader is not None and name is not None else None
                if data is not None:
                    contents.append(data)
                    continue
                try:
                    raw = fs.read_file(path, "utf-8")
                    contents.append(raw if isinstance(raw, str) else None)
                except Exception:
                    if strict:
                        raise
                    skipped_read_error += 1
                    contents.append(None)
            for (path, _, _), content in zip(batch, contents):
                if truncated:
                    break
                if content is None:
                    continue
                if isinstance(content, bytes):
                    if not search.may_match(content):
                        continue  # none of the pattern's required literals: no line can match
                    content = decode(content, "utf-8")
                matches = take(path, search.matches(content))
                if matches:
                    lines = content.split("\n")
                    emit_file(path, matches, lambda i, lines=lines: lines[i] if 0 <= i < len(lines) else None)

        parts = [f"{total} match{'es' if total != 1 else ''}",
                 f"across {len(files_with_matches)} file{'s' if len(files_with_matches) != 1 else ''}"]
        if truncated:
            parts.append(f"(truncated at {GLOBAL_CAP})")
        if skipped_extension > 0:
            parts.append(f"({skipped_extension} file{'s' if skipped_extension != 1 else ''} skipped: unsupported extension)")
        if target_not_found:
            parts.append("(target path not found: nothing searched)")
        if skipped_read_error > 0:
            parts.append(f"({skipped_read_error} path{'s' if skipped_read_error != 1 else ''} skipped: read error)")
        output = "\n".join([" ".join(parts), "---", *rows])
        return apply_token_limit(output, ctx.workspace.tool_config(GREP).get("maxOutputTokens"), keep="start"), total

    return Tool(GREP, DESCRIPTION, INPUT_SCHEMA, execute)


TOOL = create_grep_tool()
