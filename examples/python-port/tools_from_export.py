"""The port's tool list, byte for byte as the model sees the upstream's tools: taken from the
`descriptions.<tool>` cases of `wsconf export` (their `tool_info` step expects the whole entry; the
`size` the harness measures is left out, since the `tools` op does not answer it).

    wsconf export | python tools_from_export.py read_file list_files file_stat > tools.json
"""
import json
import sys

corpus = json.load(sys.stdin)
cases = {case["id"]: case for case in corpus["cases"]}
tools = []
for name in sys.argv[1:]:
    (step,) = [s for s in cases[f"descriptions.{name}"]["steps"] if "tool_info" in s]
    tools.append({k: v for k, v in step["expect"]["value"].items() if k != "size"})
json.dump(tools, sys.stdout, indent=1, ensure_ascii=False)
sys.stdout.write("\n")
