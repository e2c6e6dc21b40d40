"""How a user names an adapter: reference, mastra, mastra@<version>, a provider (mastra-s3, mastra-gcs,
mastra-sandboxfs, mastra-code) optionally on another release (`<provider>@<version>`), cmd:...,
module:Class, or an entry point."""
from __future__ import annotations

import importlib
import os
import shlex
import sys
from importlib.metadata import entry_points

from .base import Adapter, TimedAdapter
from .node_bridge import bridge_script
from .reference import ReferenceAdapter
from .subprocess import DEFAULT_MAX_LINE, SubprocessAdapter


# The bridge on another filesystem provider (provider_kit.py): name -> (module, class).
PROVIDERS = {
    "mastra-s3": (".s3", "S3Adapter"),
    "mastra-gcs": (".gcs", "GcsAdapter"),
    "mastra-sandboxfs": (".sandboxfs", "SandboxFsAdapter"),
    "mastra-code": (".sandboxfs", "MastraCodeAdapter"),
}


def load_adapter(spec: str, timeout: float = 30.0, max_line: int = DEFAULT_MAX_LINE,
                 hermetic: bool = False) -> Adapter:
    """Build an adapter from its name: reference, mastra, cmd:..., module:Class, or an entry point.
    `max_line` caps a response line and `hermetic` runs the process under bwrap (subprocess
    adapters only: an in-process implementation cannot be confined)."""
    process = {"timeout": timeout, "max_line": max_line, "hermetic": hermetic}
    if spec == "reference-protocol":
        return SubprocessAdapter([sys.executable, "-m", "wsref.server"], **process)
    if spec == "mastra":
        return SubprocessAdapter(["node", str(bridge_script())], **process)
    if spec.startswith("mastra@"):  # an older (or the pinned) release, installed into a cache by npm
        from .release_install import release_script
        return SubprocessAdapter(["node", str(release_script(spec.partition("@")[2]))], **process)
    provider, _, core_version = spec.partition("@")
    if provider in PROVIDERS:
        # imported only when asked: moto and the fake-gcs-server wheel are optional extras
        module, cls = PROVIDERS[provider]
        adapter = getattr(importlib.import_module(module, __package__), cls)
        return adapter(core_version=core_version or None, **process)
    if spec.startswith("cmd:"):
        return SubprocessAdapter(shlex.split(spec[4:]), **process)
    if hermetic:
        raise ValueError(f"hermetic mode confines a subprocess adapter; {spec!r} runs in this process "
                         "(use reference-protocol, mastra or cmd:...)")
    if spec in ("reference", "wsref"):
        return ReferenceAdapter(timeout=timeout)
    found = [ep for ep in entry_points(group="wsconf.adapters") if ep.name == spec]
    if found:
        return _timed(found[0].load()(), timeout)
    if ":" in spec:
        module, _, cls = spec.partition(":")
        return _timed(getattr(_import_from_here(module), cls)(), timeout)
    raise ValueError(f"unknown adapter {spec!r}: use reference, mastra, mastra@<version>, "
                     f"{', '.join(PROVIDERS)} (each also @<version>), cmd:<command>, module:Class, "
                     "or a name registered in the wsconf.adapters entry-point group")


def _import_from_here(module: str):
    """The module of a module:Class adapter, also from the current folder (as `python -m` would find
    it): a port's adapter lives in its own repository, where `wsconf run` starts, not on sys.path."""
    here = os.getcwd()
    if here not in sys.path:
        sys.path.append(here)  # after the installed packages: the folder never shadows one
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module.partition(".")[0]:
            raise
        raise ModuleNotFoundError(f"{exc} (looked on sys.path and in {here})", name=exc.name) from None


def _timed(adapter: Adapter, timeout: float) -> Adapter:
    """A third-party Python adapter under the run's timeout. The reference and the subprocess
    adapters keep their own deadlines (a second one around a protocol process would leave its pipe
    to two threads): they only take the run's timeout."""
    if isinstance(adapter, (ReferenceAdapter, SubprocessAdapter)):
        adapter.timeout = timeout
        if getattr(adapter, "process", None) is not None:  # started by its constructor
            adapter.process.timeout = timeout
        return adapter
    return TimedAdapter(adapter, timeout)
