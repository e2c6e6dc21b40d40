"""wsconf benchmarks: wsref against @mastra/core 1.71.0 and against GNU grep (tools/bench/README.md).

    .venv/bin/python -m tools.bench            # full run (several minutes)
    .venv/bin/python -m tools.bench --quick    # a smoke run of a few seconds
"""
