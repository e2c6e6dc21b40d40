"""A port's own configuration: `wsconf.toml`, or `[tool.wsconf]` in pyproject.toml.

    adapter = "cmd:node port.mjs"     # the implementation under test
    expectations = "wsconf-expectations"   # folder of <implementation>.yaml known failures
    tools = ["read_file", "write_file"]    # the tools it implements (others: unsupported)
    timeout = 30.0                   # seconds per adapter call
    workers = 2                      # parallel workers (pytest-xdist): a number or "auto"
    results = "results/wsconf.jsonl" # write one JSON object per case
    junitxml = "results/wsconf.xml"  # JUnit XML for CI

Paths are relative to the config file's folder. Command-line options win over the file. An
unknown key or a value of the wrong type is refused with the file, line and key.
"""
from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

CONFIG_FILE = "wsconf.toml"

# key -> (python types accepted, what to say when it is something else)
KEYS: dict[str, tuple[tuple[type, ...], str]] = {
    "adapter": ((str,), "a string such as \"cmd:node port.mjs\""),
    "expectations": ((str,), "a folder path (string)"),
    "tools": ((list,), "a list of tool names"),
    "timeout": ((int, float), "a number of seconds"),
    "workers": ((int, str), "a number of workers or \"auto\""),
    "results": ((str,), "a file path (string)"),
    "junitxml": ((str,), "a file path (string)"),
}
PATH_KEYS = ("expectations", "results", "junitxml")


class ConfigError(Exception):
    """A config problem, naming the file, the line and the key."""

    def __init__(self, path: Path, line: int, key: str, message: str):
        super().__init__(f"{path}:{line}: {key}: {message}")


@dataclass
class Config:
    path: Path | None = None
    values: dict = field(default_factory=dict)

    def get(self, key: str, default=None):
        return self.values.get(key, default)


def find_config(start: Path | None = None) -> Path | None:
    """wsconf.toml, else a pyproject.toml with [tool.wsconf], in this folder or a parent. A
    pyproject.toml that names [tool.wsconf] but cannot be read is refused (ConfigError), never
    passed over: the run would quietly judge something else."""
    folder = (start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / CONFIG_FILE).is_file():
            return candidate / CONFIG_FILE
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file() and "wsconf" in _tool_table(pyproject):
            return pyproject
    return None


def _tool_table(pyproject: Path) -> dict:
    try:
        raw = pyproject.read_bytes()
    except OSError:
        return {}
    mentions = re.search(rb"^\s*\[\s*tool\s*\.\s*wsconf\b", raw, re.MULTILINE) is not None
    try:
        return _parse(pyproject, raw).get("tool", {})
    except ConfigError:
        if mentions:
            raise
        return {}


def _parse(path: Path, raw: bytes) -> dict:
    """The TOML of a config file, or a ConfigError naming the line that stops it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(path, raw[:exc.start].count(b"\n") + 1, "<file>",
                          f"not UTF-8 (byte {exc.start}: {raw[exc.start:exc.start + 1]!r})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = int(m.group(1)) if (m := re.search(r"line (\d+)", str(exc))) else 1
        raise ConfigError(path, line, "<toml>", f"not valid TOML: {exc}") from None


def _line_of(text: str, key: str, table: str | None) -> int:
    """The line a key is set on (inside `table` when given): tomllib keeps no positions."""
    in_table = table is None
    for number, line in enumerate(text.splitlines(), 1):
        header = re.match(r"\s*\[([^\]]+)\]\s*(#.*)?$", line)
        if header:
            in_table = table is None or header.group(1).strip() == table
            continue
        if in_table and re.match(rf"\s*{re.escape(key)}\s*=", line):
            return number
    return 1


def check_tools(config: Config, unknown: list[str], known: str) -> None:
    """Refuse tools the spec has no case for (`unknown`), naming the file and the line of `tools`."""
    if unknown:
        text = config.path.read_text(encoding="utf-8")
        table = "tool.wsconf" if config.path.name == "pyproject.toml" else None
        raise ConfigError(config.path, _line_of(text, "tools", table), "tools",
                          f"unknown tool(s) {', '.join(map(repr, unknown))}; the spec's tools are {known}")


def load_config(path: Path) -> Config:
    raw = path.read_bytes()
    data = _parse(path, raw)
    text = raw.decode("utf-8")
    table = None
    if path.name == "pyproject.toml":
        table = "tool.wsconf"
        data = data.get("tool", {}).get("wsconf", {})
    values = {}
    for key, value in data.items():
        line = _line_of(text, key, table)
        if key not in KEYS:
            raise ConfigError(path, line, key, f"unknown key; the keys are {', '.join(KEYS)}")
        types, expected = KEYS[key]
        if isinstance(value, bool) or not isinstance(value, types):
            raise ConfigError(path, line, key, f"expected {expected}, got {type(value).__name__} {value!r}")
        if key == "tools" and not all(isinstance(t, str) and t for t in value):
            raise ConfigError(path, line, key, "expected a list of tool names (strings)")
        if key == "workers" and isinstance(value, str) and value != "auto":
            raise ConfigError(path, line, key, f"expected a number of workers or \"auto\", got {value!r}")
        if key == "workers" and isinstance(value, int) and value < 1:
            raise ConfigError(path, line, key, f"expected at least 1 worker, got {value!r}")
        if key == "timeout" and not (math.isfinite(value) and value > 0):
            raise ConfigError(path, line, key, f"expected a number of seconds above 0, got {value!r}")
        if key == "adapter" and (problem := _adapter_problem(value)):
            raise ConfigError(path, line, key, problem)
        if key in PATH_KEYS:
            value = str((path.parent / value).resolve())
        if key == "expectations" and not Path(value).is_dir():
            raise ConfigError(path, line, key, f"no such folder: {value}")
        values[key] = value
    if values.get("results") and values.get("results") == values.get("junitxml"):
        raise ConfigError(path, _line_of(text, "junitxml", table), "junitxml",
                          "the same file as results: one would overwrite the other")
    return Config(path, values)


def _adapter_problem(name: str) -> str | None:
    from ..adapters.registry import name_problem
    return name_problem(name)

