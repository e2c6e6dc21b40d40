"""The adapter interface (spec/adapter.md) and how a user names an adapter."""
from __future__ import annotations

import importlib
import shlex
from importlib.metadata import entry_points
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
BRIDGE = REPO_ROOT / "tools" / "mastra-bridge" / "bridge.mjs"


class AdapterFault(Exception):
    """The adapter could not do what was asked: crashed, hung, or broke the protocol."""


class AdapterTimeout(AdapterFault):
    pass


class OpenError(Exception):
    """Building the workspace threw: the implementation's answer (an error Result), not a fault."""

    def __init__(self, result: dict):
        super().__init__(result.get("message", ""))
        self.result = result


class Session:
    def tools(self) -> list[dict]:
        raise NotImplementedError

    def call(self, tool: str, args: dict) -> dict:
        raise NotImplementedError

    def fs(self, method: str, args: list) -> dict:
        raise NotImplementedError

    def workspace(self, method: str, args: list) -> dict:
        """A Workspace method or property (lifecycle, getInfo, setToolsConfig ...): a Result."""
        raise NotImplementedError

    def retool(self) -> dict:
        """Build the tool set again from the current config, as a new agent interaction does."""
        raise NotImplementedError

    def hook_log(self) -> list:
        """What the recording host hooks saw, in order."""
        raise NotImplementedError

    def close(self) -> None:
        pass


class Adapter:
    name: str = "?"
    version: str = "?"
    capabilities: frozenset[str] = frozenset()

    def open(self, root: str, outside: str, home: str, workspace: dict) -> Session:
        raise NotImplementedError

    def close(self) -> None:
        pass


def load_adapter(spec: str, timeout: float = 30.0) -> Adapter:
    """Build an adapter from its name: reference, mastra, cmd:..., module:Class, or an entry point."""
    from .subprocess import SubprocessAdapter

    if spec in ("reference", "wsref"):
        from .reference import ReferenceAdapter
        return ReferenceAdapter(timeout=timeout)
    if spec == "reference-protocol":
        import sys
        return SubprocessAdapter([sys.executable, "-m", "wsref.serve"], timeout=timeout)
    if spec == "mastra":
        return SubprocessAdapter(["node", str(BRIDGE)], timeout=timeout)
    if spec == "mastra-s3": return importlib.import_module(".s3", __package__).S3Adapter(timeout=timeout)  # noqa: E701
    if spec.startswith("cmd:"):
        return SubprocessAdapter(shlex.split(spec[4:]), timeout=timeout)
    found = [ep for ep in entry_points(group="wsconf.adapters") if ep.name == spec]
    if found:
        return found[0].load()()
    if ":" in spec:
        module, _, cls = spec.partition(":")
        return getattr(importlib.import_module(module), cls)()
    raise ValueError(f"unknown adapter {spec!r}: use reference, mastra, cmd:<command>, module:Class, "
                     "or a name registered in the wsconf.adapters entry-point group")
