"""core/memory/: @mastra/core src/memory/ (only MockMemory's message history)."""
