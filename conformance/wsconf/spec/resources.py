"""Where the suite's data lives: the checkout's folders, or the copies bundled in the installed wheel.

From a checkout (an editable install, or running the tests) the spec, fixtures, expectations and
bridge are the repository's own folders, so edits show at once. An installed wheel carries copies
under `wsconf/_bundled/` (setup.py puts them there at build time), read through importlib.resources.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[3]  # spec/ -> wsconf/ -> conformance/ -> the checkout

# name -> its folder in the checkout (the bundle uses the name itself)
_CHECKOUT_PATHS = {
    "spec": _CHECKOUT / "spec",
    "fixtures/repo": _CHECKOUT / "fixtures" / "repo",
    "expectations": _CHECKOUT / "conformance" / "expectations",
    "mastra-bridge": _CHECKOUT / "tools" / "mastra-bridge",
    "examples": _CHECKOUT / "examples",
}


def in_checkout() -> bool:
    """True when wsconf runs from the repository (not from an installed wheel)."""
    return (_CHECKOUT / "spec" / "claims.yaml").is_file() and (_CHECKOUT / "conformance" / "wsconf").is_dir()


def data_path(name: str) -> Path:
    """The folder holding `name` (spec, fixtures/repo, expectations, mastra-bridge, examples)."""
    if name not in _CHECKOUT_PATHS:
        raise KeyError(name)
    if in_checkout():
        return _CHECKOUT_PATHS[name]
    # A wheel is installed unzipped, so the bundled folder is a real path on disk.
    return Path(str(files("wsconf") / "_bundled" / name))


def pages_dir() -> Path:
    """The documentation pages the claims quote (beside the checkout, in ../shared/seeds)."""
    return _CHECKOUT.parent / "shared" / "seeds"
