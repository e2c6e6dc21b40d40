"""`wsconf init`: the files a port's repository needs to run the suite in its own CI."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..session import expectations

CONFIG = '''# wsconf: the conformance suite for the Mastra workspace tools (`wsconf run` reads this file).
adapter = {adapter}
expectations = "wsconf-expectations"
{tools}timeout = 30
results = "results/wsconf.jsonl"
junitxml = "results/wsconf.xml"
'''

WORKFLOW = '''name: wsconf
on: [push, pull_request]
jobs:
  conformance:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - uses: actions/setup-node@v4
        with:
          node-version: "20"
      - run: python -m pip install wsconf   # or the wsconf wheel your project pins
      - run: wsconf run                     # reads wsconf.toml; fails on any result not in the expectations
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: wsconf-results
          path: results/
'''


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def init(directory: Path, adapter: str, implementation: str, tools: str | None, force: bool, out=print) -> int:
    tools_line = ""
    if tools:
        names = [t.strip() for t in tools.split(",") if t.strip()]
        tools_line = "tools = [" + ", ".join(_toml_string(t) for t in names) + "]\n"
    files = {
        directory / "wsconf.toml": CONFIG.format(adapter=_toml_string(adapter), tools=tools_line),
        directory / ".github" / "workflows" / "wsconf.yml": WORKFLOW,
    }
    expectations_file = expectations.path_for(implementation, directory / "wsconf-expectations")
    existing = [p for p in [*files, expectations_file] if p.exists()]
    if existing and not force:
        print("wsconf init: these exist already (use --force to overwrite): "
              + ", ".join(str(p) for p in existing), file=sys.stderr)
        return 1
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        out(f"wrote {path}")
    out(f"wrote {expectations.write(implementation, {}, directory / 'wsconf-expectations')}")
    out("next: `wsconf run` (the header shows what is judged); record each known failure with its reason in "
        "the expectations file (`wsconf expectations` drafts it from a results file)")
    return 0
