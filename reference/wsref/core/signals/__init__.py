"""core/signals/: @mastra/core src/signals/ (the TaskSignalProvider)."""
from .task_signal_provider import TaskSignalProvider

__all__ = ["TaskSignalProvider"]
