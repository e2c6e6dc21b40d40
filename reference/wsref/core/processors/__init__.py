"""core/processors/: @mastra/core src/processors/ (only runner.ts's state-signal step)."""
