"""core/agent/: @mastra/core src/agent/ (only signals.ts: a signal's markup and data part)."""
