"""TaskSignalProvider: the four task tools and the task-state processor behind one registration.

Upstream: @mastra/core src/signals/task-signal-provider.ts (1.71.0). `new Agent({signals: [new
TaskSignalProvider()]})` merges getTools() into the agent's tool set (before the workspace tools)
and puts the processor on its input-processor chain.
"""
from __future__ import annotations

from ..tools.builtin.task_state_processor import TaskStateProcessor
from ..tools.builtin.task_tools import task_check_tool, task_complete_tool, task_update_tool, task_write_tool


class TaskSignalProvider:
    id = "task-signals"

    def __init__(self) -> None:
        self._processor = TaskStateProcessor()

    def get_input_processors(self) -> list:
        return [self._processor]

    def get_tools(self) -> dict:
        return {"task_write": task_write_tool, "task_update": task_update_tool,
                "task_complete": task_complete_tool, "task_check": task_check_tool}
