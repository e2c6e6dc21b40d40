"""Dynamic values (upstream `utils.ts`): values a config may give as a function of the request.

resolveDynamicValue is private to the upstream's tools/tools.ts; here Workspace.tool_enabled needs it
too, so it lives below both.
"""
from __future__ import annotations

from .js.promise import Promise


def resolve_dynamic(value, context: dict | None, safe_default: bool) -> bool:
    """resolveDynamicValue: booleans as they are, functions called, a throwing function -> default."""
    if value is None:
        return safe_default
    if isinstance(value, bool):
        return value
    if context is None:
        return safe_default
    try:
        result = value(context)
        if isinstance(result, Promise):  # an async function: awaited
            result = result.settle()
        return bool(result)
    except Exception:
        return safe_default
