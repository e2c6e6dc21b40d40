"""Dynamic values (upstream `utils.ts`): values a config may give as a function of the request.

resolveDynamicValue is private to the upstream's tools/tools.ts; here Workspace.tool_enabled needs it
too, so it lives below both.
"""
from __future__ import annotations


def resolve_dynamic(value, context: dict | None, safe_default: bool) -> bool:
    """resolveDynamicValue: booleans as they are, functions called, a throwing function -> default."""
    if value is None:
        return safe_default
    if isinstance(value, bool):
        return value
    if context is None:
        return safe_default
    try:
        return bool(value(context))
    except Exception:
        return safe_default
