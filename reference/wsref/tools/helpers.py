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


DIAGNOSTICS_TIMEOUT_MS = 10_000
MAX_DIAGNOSTICS_CHARS = 2000  # ~500 tokens
SEVERITY_LABELS = (("error", "Errors"), ("warning", "Warnings"), ("info", "Info"), ("hint", "Hints"))


def get_edit_diagnostics_text(workspace, file_path: str, content: str) -> str:
    """getEditDiagnosticsText: what write_file and edit_file append when the workspace has an LSP
    manager: "\\n\\nLSP Diagnostics:" and, per severity that has any, its label and one
    "  line:character - message [source]" row each (deduplicated), cut near 2000 characters.
    Any failure, no client, no diagnostics, or 10 s without an answer: nothing."""
    import posixpath
    import threading
    try:
        manager = getattr(workspace, "lsp", None)
        if manager is None:
            return ""
        fs = workspace.filesystem
        resolve = getattr(fs, "resolve_absolute_path", None) if fs is not None else None
        absolute = resolve(file_path) if resolve is not None else None
        if absolute is None:
            absolute = posixpath.normpath(posixpath.join(manager.root, file_path.lstrip("/")))
        # The 10 s race: the manager's own deadlines (diagnosticTimeout) end the work left behind,
        # on a daemon thread, so that it keeps no process alive (as a settled race keeps no Node
        # process alive: the bridge exits).
        answer = []
        worker = threading.Thread(target=lambda: answer.append(manager.get_diagnostics(absolute, content)),
                                  name="wsref-lsp-diagnostics", daemon=True)
        worker.start()
        worker.join(DIAGNOSTICS_TIMEOUT_MS / 1000)
        if not answer:  # 'LSP diagnostics timeout': caught like any failure
            return ""
        diagnostics = answer[0]
        if not diagnostics:  # None: no client; []: nothing to report
            return ""
        seen, groups = set(), {severity: [] for severity, _ in SEVERITY_LABELS}
        for d in diagnostics:
            key = (d["severity"], d["line"], d["character"], d["message"])
            if key not in seen:
                seen.add(key)
                groups[d["severity"]].append(d)
        lines = ["\n\nLSP Diagnostics:"]
        for severity, label in SEVERITY_LABELS:
            if groups[severity]:
                lines.append(f"{label}:")
                for d in groups[severity]:
                    source = f" [{d['source']}]" if d.get("source") else ""
                    lines.append(f"  {d['line']}:{d['character']} - {d['message']}{source}")
        result = "\n".join(lines)
        if len(result) > MAX_DIAGNOSTICS_CHARS:
            cutoff = result.rfind("\n", 0, MAX_DIAGNOSTICS_CHARS + 1)
            result = result[:cutoff if cutoff > 0 else MAX_DIAGNOSTICS_CHARS] + "\n  ... (truncated)"
        return result
    except Exception:
        return ""
