"""The two names of a tool: its id ("mastra_workspace_read_file", as the cases and the protocol
give it) and its family ("read_file", as a port's config, `--tool` and the summary name it)."""
from __future__ import annotations

TOOL_PREFIX = "mastra_workspace_"
SKILL_TOOLS = ("skill", "skill_search", "skill_read")  # ids without the prefix


def tool_id(name: str) -> str:
    """A tool as the config or hello may name it ("read_file") -> its id ("mastra_workspace_read_file")."""
    return name if name.startswith(TOOL_PREFIX) or name in SKILL_TOOLS else TOOL_PREFIX + name


def family_of(tool_id: str) -> str:
    """mastra_workspace_read_file -> read_file (the name `--tool` and the summary use)."""
    return tool_id.removeprefix(TOOL_PREFIX)


def spec_tools(spec) -> list[str]:
    """The tools the spec's cases call, by family."""
    return sorted({family_of(t) for case in spec.cases for t in case.tools_called})


def unknown_tools(names, spec) -> list[str]:
    """The names (ids or short names) of tools no case of the spec calls: a typo in a port's list of
    tools would quietly make every case of that tool unsupported."""
    known = spec_tools(spec)
    return [name for name in names if family_of(tool_id(name)) not in known]
