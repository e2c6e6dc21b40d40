"""core/tools/builtin/: @mastra/core src/tools/builtin/, the agent-agnostic built-in tools (the task tools)."""
