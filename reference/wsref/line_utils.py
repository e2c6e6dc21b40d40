"""Line ranges and the line-number gutter, as the upstream's line-utils formats them."""
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
