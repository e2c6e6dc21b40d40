"""`wsconf init`: the files a port's repository needs to run the suite in its own CI; the first-port
guide (`--guide`) and the worked examples (`--example NAME`) the wheel carries."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from .. import __version__
from ..session import expectations
from ..spec.resources import data_path

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
{node}      # wsconf is not on PyPI yet: this installs the wheel file or git URL `wsconf init --install` named
      - run: python -m pip install {install}
      - run: wsconf run                     # reads wsconf.toml; fails on any result not in the expectations
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: wsconf-results
          path: results/
'''

NODE = '''      - uses: actions/setup-node@v4          # the adapter runs node
        with:
          node-version: "20"
'''

DEFAULT_INSTALL = f"./wsconf-{__version__}-py3-none-any.whl"  # a wheel committed beside wsconf.toml


def needs_node(adapter: str) -> bool:
    """Node is set up in CI only for an adapter that runs it: the mastra adapters, or a command starting with node."""
    command = adapter.removeprefix("cmd:").split()
    return adapter.startswith("mastra") or bool(command) and Path(command[0]).name in ("node", "npx", "npm")


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def init(directory: Path, adapter: str, implementation: str, tools: str | None, force: bool, out=print,
         install: str | None = None) -> int:
    tools_line = ""
    if tools:
        names = [t.strip() for t in tools.split(",") if t.strip()]
        tools_line = "tools = [" + ", ".join(_toml_string(t) for t in names) + "]\n"
    install = install or DEFAULT_INSTALL
    files = {
        directory / "wsconf.toml": CONFIG.format(adapter=_toml_string(adapter), tools=tools_line),
        directory / ".github" / "workflows" / "wsconf.yml": WORKFLOW.format(
            node=NODE if needs_node(adapter) else "", install=json.dumps(install)),
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
    out(f"the workflow installs wsconf with `pip install {install}`"
        + (": commit that wheel beside wsconf.toml, or give --install a git URL" if install == DEFAULT_INSTALL else ""))
    out("next: `wsconf smoke ADAPTER`, then `wsconf run` (the header shows what is judged); record each known failure "
        "with its reason in the expectations file (`wsconf expectations` drafts it from a results file); "
        "`wsconf init --guide` tells the whole way")
    return 0


def guide() -> str:
    """spec/first-port.md, as the wheel carries it."""
    return (data_path("spec") / "first-port.md").read_text(encoding="utf-8")


def examples() -> list[str]:
    return sorted(p.name for p in data_path("examples").iterdir() if (p / "wsconf.toml").is_file())


def copy_example(name: str, directory: Path, force: bool, out=print) -> int:
    """A worked example into `directory`: its port, config, expectations and README."""
    if name not in examples():
        print(f"wsconf init: no example {name!r}; the examples are {', '.join(examples())}", file=sys.stderr)
        return 2
    if directory.exists() and any(directory.iterdir()) and not force:
        print(f"wsconf init: {directory} is not empty (use --force to copy over it)", file=sys.stderr)
        return 1
    shutil.copytree(data_path("examples") / name, directory, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("results", "__pycache__"))
    out(f"copied the example {name} to {directory}: `cd {directory}` and `wsconf run` (its README says what it shows)")
    return 0
