"""Line ranges and the line-number gutter (upstream `line-utils.ts`)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Extract:
    content: str
    start: int   # 0 when nothing was extracted
    end: int
    total_lines: int


def extract_lines(content: str, offset: int | None = None, limit: int | None = None) -> Extract:
    """offset is 1-based; limit is a count. `split('\\n')` semantics: a final newline adds an empty line."""
    lines = content.split("\n")
    total = len(lines)
    start_line = 1 if offset is None else offset
    end_line = start_line + limit - 1 if limit else None
    start = max(1, start_line)
    end = min(total, total if end_line is None else end_line)
    if start > end:
        return Extract("", 0, 0, total)
    return Extract("\n".join(lines[start - 1:end]), start, end, total)


def format_with_line_numbers(content: str, start_line: int = 1) -> str:
    """Right-aligned number in a gutter at least six wide, then the arrow, then the line."""
    lines = content.split("\n")
    width = max(6, len(str(start_line + len(lines) - 1)) + 1)
    return "\n".join(f"{start_line + i:>{width}}→{line}" for i, line in enumerate(lines))


def extract_lines_from_file(fh, offset: int | None = None, limit: int | None = None,
                            chunk_size: int = 1 << 18) -> Extract:
    """extract_lines(fh.read().decode('utf-8', 'replace'), offset, limit) without holding the file.

    Reads the binary file `fh` in chunks, counting newlines, and keeps only the bytes of the wanted
    lines. The same result as decoding the whole file: a newline byte is never part of a UTF-8
    sequence and ends any incomplete one, so the window (which starts after a newline and ends
    before one) decodes exactly as it does inside the whole text. Memory: the window plus a chunk.
    """
    start_line = 1 if offset is None else offset
    end_line = start_line + limit - 1 if limit else None
    first = max(1, start_line)
    last = end_line  # None: to the end of the file
    parts: list[bytes] = []
    line = 1  # the line the next byte read belongs to
    state = "skip" if last is None or first <= last else "count"
    if state == "skip" and first == 1:
        state = "take"
    while True:
        buf = fh.read(chunk_size)
        if not buf:
            break
        pos = 0
        if state == "skip":
            need = first - line  # newlines before line `first` starts
            if buf.count(b"\n") < need:
                line += buf.count(b"\n")
                continue
            idx = -1
            for _ in range(need):
                idx = buf.find(b"\n", idx + 1)
            line, pos, state = first, idx + 1, "take"
        if state == "take":
            if last is None:
                parts.append(buf[pos:] if pos else buf)
                line += buf.count(b"\n", pos)
                continue
            need = last - line + 1  # newlines up to and including the one ending line `last`
            if buf.count(b"\n", pos) < need:
                parts.append(buf[pos:] if pos else buf)
                line += buf.count(b"\n", pos)
                continue
            idx = pos - 1
            for _ in range(need):
                idx = buf.find(b"\n", idx + 1)
            parts.append(buf[pos:idx])
            line, pos, state = last + 1, idx + 1, "count"
        line += buf.count(b"\n", pos)
    total = line
    start = first
    end = min(total, total if last is None else last)
    if start > end:
        return Extract("", 0, 0, total)
    return Extract(b"".join(parts).decode("utf-8", "replace"), start, end, total)
