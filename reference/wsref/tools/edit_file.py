"""mastra_workspace_edit_file (not yet implemented in the reference: it raises until it lands)."""
from __future__ import annotations

from .base import Tool


def execute(args, ctx):
    raise NotImplementedError("mastra_workspace_edit_file is not implemented in wsref yet")


TOOL = Tool("mastra_workspace_edit_file", "", {"type": "object", "properties": {}, "additionalProperties": True}, execute)
