"""Output shaping shared by the tools: the token window, the line tail, ANSI stripping."""
from __future__ import annotations

import re

from .tokens import estimate_token_count, slice_by_tokens_safe

DEFAULT_TAIL_LINES = 200
DEFAULT_MAX_OUTPUT_TOKENS = 2000

_ANSI_RE = re.compile(
    r"(?:\x1b\][\s\S]*?(?:\x07|\x1b\\|\x9c))"
    r"|(?:[\x1b\x9b][\[\]()#;?]*(?:[0-9]{1,4}(?:[;:][0-9]{0,4})*)?[0-9A-PR-TZcf-nq-uy=><~])"
)


def strip_ansi(text: str) -> str:
    return _ANSI_RE.sub("", text)


def apply_token_limit(output: str, limit: int | None = None, keep: str = "start") -> str:
    """Cut `output` to `limit` estimated tokens. keep='start' keeps the beginning (notice last);
    keep='end' keeps the end (notice first). Mirrors applyTokenLimit's from='end'/'start'."""
    if not output:
        return output
    limit = DEFAULT_MAX_OUTPUT_TOKENS if limit is None else limit
    total = estimate_token_count(output)
    if total <= limit:
        return output
    if keep == "start":
        kept = slice_by_tokens_safe(output, 0, limit)
        return f"{kept}\n[output truncated: showing first ~{limit} of ~{total} tokens]"
    kept = slice_by_tokens_safe(output, -limit)
    return f"[output truncated: showing last ~{limit} of ~{total} tokens]\n{kept}"


def apply_tail(output: str, tail: float | None) -> str:
    """The last N lines, like `tail -n`; 0 means no limit; None means the default 200."""
    if not output:
        return output
    n = int(abs(DEFAULT_TAIL_LINES if tail is None else tail))
    if n == 0:
        return output
    trailing = output.endswith("\n")
    lines = (output[:-1] if trailing else output).split("\n")
    if len(lines) <= n:
        return output
    body = "\n".join(lines[-n:]) + ("\n" if trailing else "")
    return f"[showing last {n} of {len(lines)} lines]\n{body}"
