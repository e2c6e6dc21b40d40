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


def emit_workspace_metadata(ctx: ToolContext, tool_name: str) -> None:
    """emitWorkspaceMetadata: the first chunk every workspace tool writes, when the context has a writer:
    {type: 'data-workspace-metadata', data: {toolName (the default id), toolCallId, ...workspace.getInfo()}}."""
    writer = ctx.extra.get("writer")
    if writer is None:
        return
    info = ctx.workspace.get_info({"requestContext": ctx.extra.get("requestContext"), "resolveDynamicProviders": False})
    data = defined({"toolName": tool_name, "toolCallId": ctx.extra.get("toolCallId")})
    writer({"type": "data-workspace-metadata", "data": {**data, **info}})


def defined(value: dict) -> dict:
    """A chunk's data as JSON shows it: an undefined (None) property is left out."""
    return {k: v for k, v in value.items() if v is not None}
