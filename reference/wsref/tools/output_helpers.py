"""Output shaping shared by the tools (upstream `tools/output-helpers.ts`): token window, tail, ANSI.

Also the sandbox tools' 'sandwich' truncation (head + tail within the token budget) and their
toModelOutput, which strips ANSI codes from what the model is shown while the raw result keeps them."""
from __future__ import annotations

import re

from ..js.tokenx import estimate_token_count, slice_by_tokens_safe

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


def apply_token_limit_sandwich(output: str, limit: int | None = None, head_ratio: float = 0.1) -> str:
    """Keep the first 10% and the last 90% of the token budget, with a notice in between."""
    if not output:
        return output
    limit = DEFAULT_MAX_OUTPUT_TOKENS if limit is None else limit
    total = estimate_token_count(output)
    if total <= limit:
        return output
    head_budget = int(limit * head_ratio // 1)
    tail_budget = limit - head_budget
    head = slice_by_tokens_safe(output, 0, head_budget) if head_budget > 0 else ""
    tail = slice_by_tokens_safe(output, -tail_budget) if tail_budget > 0 else ""
    notice = (f"[...output truncated — showing first ~{_num(head_budget)} + last ~{_num(tail_budget)} "
              f"of ~{total} tokens...]")
    return "\n".join(part for part in (head, notice, tail) if part)


def _num(x) -> str:
    from ..js.strings import js_number
    return js_number(x)


def truncate_output(output: str, tail=None, token_limit=None) -> str:
    """truncateOutput(output, tail, tokenLimit, 'sandwich')."""
    return apply_token_limit_sandwich(apply_tail(output, tail), token_limit)


def sandbox_to_model_output(output):
    if isinstance(output, str):
        return {"type": "text", "value": strip_ansi(output)}
    if isinstance(output, dict) and output.get("error") is True and "validationErrors" in output:
        return {"type": "error-json", "value": output}
    return output
