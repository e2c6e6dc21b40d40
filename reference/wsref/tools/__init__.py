"""The tool set a workspace exposes, built the way createWorkspaceTools builds it."""
from __future__ import annotations

from .base import Tool, ToolContext
from .read_file import read_file_tool

__all__ = ["Tool", "ToolContext", "create_workspace_tools", "ALL_TOOLS"]

# In the upstream's order; each entry: (tool, needs write access).
ALL_TOOLS = [(read_file_tool, False)]


def create_workspace_tools(workspace) -> dict[str, "BoundTool"]:
    tools: dict[str, BoundTool] = {}
    read_only = bool(workspace.filesystem and workspace.filesystem.readOnly)
    if workspace.filesystem is not None:
        for tool, needs_write in ALL_TOOLS:
            config = workspace.tool_config(tool.id)
            if not workspace.tool_enabled(tool.id):
                continue
            if needs_write and read_only:
                continue
            name = config.get("name", tool.id)
            if name in tools:
                raise ValueError(
                    f'Duplicate workspace tool name "{name}": tool "{tool.id}" conflicts with an already-registered '
                    'tool. Check your tools config for duplicate "name" values.')
            tools[name] = BoundTool(name, tool, workspace)
    return tools


class BoundTool:
    """A tool bound to its workspace under its exposed name: what an agent would call."""

    def __init__(self, name: str, tool: Tool, workspace):
        self.name = name
        self.tool = tool
        self.workspace = workspace

    @property
    def description(self) -> str:
        return self.tool.description

    @property
    def input_schema(self) -> dict:
        return self.tool.input_schema

    @property
    def require_approval(self) -> bool:
        return bool(self.workspace.tool_config(self.tool.id).get("requireApproval",
                    (self.workspace.tools_config or {}).get("requireApproval", False)))

    def execute(self, args: dict):
        from ..validation import validate_input
        checked = validate_input(self.tool, args)
        if isinstance(checked, dict) and checked.get("error") is True:
            return checked
        return self.tool.execute(checked, ToolContext(self.workspace))

    def to_model_output(self, output):
        return self.tool.to_model_output(output) if self.tool.to_model_output else None
