"""core/: ports of @mastra/core parts outside workspace/, under the upstream's own paths (src/...).

Only what the `agent` op's capability task_signals needs: the task tools and the task-state
processor (src/tools/builtin/), the TaskSignalProvider (src/signals/), the signal markup
(src/agent/signals.ts) and the state-signal step of the processor runner (src/processors/runner.ts).
"""
