"""core/tools/: @mastra/core src/tools/ (only builtin/ here)."""
