"""mastra_workspace_mkdir (not yet implemented in the reference: it raises until it lands)."""
from __future__ import annotations

from .base import Tool


def execute(args, ctx):
    raise NotImplementedError("mastra_workspace_mkdir is not implemented in wsref yet")


TOOL = Tool("mastra_workspace_mkdir", "", {"type": "object", "properties": {}, "additionalProperties": True}, execute)
