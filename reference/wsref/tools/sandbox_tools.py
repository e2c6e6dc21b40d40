"""The sandbox tools: execute_command (with or without background), get_process_output, kill_process.

Also what they share: the tail + token truncation (the 'sandwich' safety net) and toModelOutput,
which strips ANSI codes from what the model is shown while the raw result keeps them.
"""
from __future__ import annotations

from ..output import DEFAULT_MAX_OUTPUT_TOKENS, apply_tail, strip_ansi
from ..tokens import estimate_token_count, slice_by_tokens_safe


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
    from ..tracking import js_number
    return js_number(x)


def truncate_output(output: str, tail=None, token_limit=None) -> str:
    """truncateOutput(output, tail, tokenLimit, 'sandwich')."""
    return apply_token_limit_sandwich(apply_tail(output, tail), token_limit)


def dynamic_sandbox_hint(workspace) -> str:
    """getDynamicSandboxCacheKeyHint: for a resolver sandbox without sandboxCacheKey, why a PID is unknown."""
    if not getattr(workspace, "has_sandbox_resolver", lambda: False)() or workspace.has_sandbox_cache_key():
        return ""
    return (" If this process was started from a dynamic sandbox resolver, configure sandboxCacheKey or have the "
            "resolver return the same sandbox for follow-up calls.")


def sandbox_to_model_output(output):
    if isinstance(output, str):
        return {"type": "text", "value": strip_ansi(output)}
    if isinstance(output, dict) and output.get("error") is True and "validationErrors" in output:
        return {"type": "error-json", "value": output}
    return output


def slots(sandbox):
    from . import Slot
    from .execute_command import execute_command_tool, execute_command_with_background_tool
    from .get_process_output import get_process_output_tool
    from .kill_process import kill_process_tool

    has_processes = getattr(sandbox, "processes", None) is not None
    out = []
    if hasattr(sandbox, "execute_command"):
        out.append(Slot(execute_command_with_background_tool if has_processes else execute_command_tool))
    if has_processes:
        out += [Slot(get_process_output_tool), Slot(kill_process_tool)]
    return out
