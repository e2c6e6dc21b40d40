"""mastra_workspace_ast_edit: opt-in, present only when the ast-grep engine is installed."""
from __future__ import annotations


def engine_available() -> bool:
    return False  # the engine binding is not wired in yet


TOOL = None
