"""tools/: the workspace tools, one module per upstream tool file, and createWorkspaceTools."""
from .base import Tool, ToolContext
from .tools import BoundTool, create_workspace_tools

__all__ = ["BoundTool", "Tool", "ToolContext", "create_workspace_tools"]
