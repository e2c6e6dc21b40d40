"""helpers (upstream `tools/helpers.ts`): what several tools ask of their context: the workspace, and the dynamic-sandbox hint."""
from __future__ import annotations

from .base import ToolContext


def dynamic_sandbox_hint(workspace) -> str:
    """getDynamicSandboxCacheKeyHint: for a resolver sandbox without sandboxCacheKey, why a PID is unknown."""
    if not getattr(workspace, "has_sandbox_resolver", lambda: False)() or workspace.has_sandbox_cache_key():
        return ""
    return (" If this process was started from a dynamic sandbox resolver, configure sandboxCacheKey or have the "
            "resolver return the same sandbox for follow-up calls.")


def _require_workspace(ctx: ToolContext):
    return ctx.workspace
