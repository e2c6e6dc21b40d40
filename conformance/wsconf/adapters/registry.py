"""How a user names an adapter: reference, mastra, mastra@<version>, mastra-s3, cmd:..., module:Class, or an entry point."""
from __future__ import annotations

import importlib
import shlex
import sys
from importlib.metadata import entry_points

from ..node_bridge import bridge_script
from .base import Adapter
from .reference import ReferenceAdapter
from .subprocess import SubprocessAdapter


def load_adapter(spec: str, timeout: float = 30.0) -> Adapter:
    """Build an adapter from its name: reference, mastra, cmd:..., module:Class, or an entry point."""
    if spec in ("reference", "wsref"):
        return ReferenceAdapter(timeout=timeout)
    if spec == "reference-protocol":
        return SubprocessAdapter([sys.executable, "-m", "wsref.server"], timeout=timeout)
    if spec == "mastra":
        return SubprocessAdapter(["node", str(bridge_script())], timeout=timeout)
    if spec.startswith("mastra@"):  # an older (or the pinned) release, installed into a cache by npm
        from ..releases import release_script
        return SubprocessAdapter(["node", str(release_script(spec.partition("@")[2]))], timeout=timeout)
    if spec == "mastra-s3":
        from .s3 import S3Adapter  # moto and boto3 are an optional extra: import them only when asked
        return S3Adapter(timeout=timeout)
    if spec.startswith("cmd:"):
        return SubprocessAdapter(shlex.split(spec[4:]), timeout=timeout)
    found = [ep for ep in entry_points(group="wsconf.adapters") if ep.name == spec]
    if found:
        return found[0].load()()
    if ":" in spec:
        module, _, cls = spec.partition(":")
        return getattr(importlib.import_module(module), cls)()
    raise ValueError(f"unknown adapter {spec!r}: use reference, mastra, mastra@<version>, cmd:<command>, module:Class, "
                     "or a name registered in the wsconf.adapters entry-point group")
