"""How a user names an adapter: reference, mastra, mastra@<version>, a provider (mastra-s3, mastra-gcs,
mastra-sandboxfs, mastra-code) optionally on another release (`<provider>@<version>`), cmd:...,
module:Class, or an entry point."""
from __future__ import annotations

import importlib
import os
import shlex
import sys
from importlib.metadata import entry_points

from ..isolation.confine import Confinement
from .base import Adapter, TimedAdapter
from .node_bridge import bridge_script
from .reference import ReferenceAdapter
from .subprocess import DEFAULT_MAX_LINE, SubprocessAdapter

IN_PROCESS = ("reference", "wsref")


def runs_in_process(spec: str) -> bool:
    """Whether the adapter this name gives runs inside the harness (so it cannot be confined)."""
    return spec in IN_PROCESS or not (spec in ("reference-protocol", "mastra", "mastra-s3", "mastra-gcs")
                                      or spec.startswith(("mastra@", "cmd:")))


def name_problem(spec: str) -> str | None:
    """Why an adapter name cannot name anything, before anything starts (a usage error), or None."""
    if not spec or not spec.strip():
        return "the adapter name is empty"
    if spec.startswith("cmd:") and not spec[4:].strip():
        return "`cmd:` needs a command line after the colon, e.g. cmd:node port.mjs"
    if spec.startswith("mastra@") and not spec[7:].strip():
        return "`mastra@` needs a release after the @, e.g. mastra@1.65.0"
    return None


# The bridge on another filesystem provider (provider_kit.py): name -> (module, class).
PROVIDERS = {
    "mastra-s3": (".s3", "S3Adapter"),
    "mastra-gcs": (".gcs", "GcsAdapter"),
    "mastra-sandboxfs": (".sandboxfs", "SandboxFsAdapter"),
    "mastra-code": (".sandboxfs", "MastraCodeAdapter"),
}


def load_adapter(spec: str, timeout: float = 30.0, max_line: int = DEFAULT_MAX_LINE,
                 confinement: Confinement | None = None) -> Adapter:
    """Build an adapter from its name: reference, mastra, cmd:..., module:Class, or an entry point.
    `max_line` caps a response line; `confinement` is how a subprocess adapter runs (default:
    confined where the kernel allows; isolation/confine.py). An in-process one cannot be confined."""
    problem = name_problem(spec)
    if problem:
        raise ValueError(problem)
    process = {"timeout": timeout, "max_line": max_line, "confinement": confinement}
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
