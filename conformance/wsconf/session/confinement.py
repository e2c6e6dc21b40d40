"""How a run confines a subprocess implementation (isolation/confine.py): what it must not see (the
spec it is judged by, the expectations, the results, the loaded spec's cache), what it needs from
inside those (the spec's fixtures), and whether it may run unconfined."""
from __future__ import annotations

from pathlib import Path

from ..isolation import confine
from ..isolation.confine import Confinement
from ..spec.cache import cache_folder
from ..spec.resources import data_path
from .expectations import EXPECTATIONS_DIR


def mode(config) -> str:
    if config.getoption("wsconf_unconfined"):
        return "off"
    return "required" if config.getoption("wsconf_hermetic") else "auto"


def for_run(config, spec_roots: list[Path]) -> Confinement:
    roots = [*spec_roots, data_path("spec")]
    results = config.getoption("wsconf_results")
    cache, beside = cache_folder()
    hidden = [*roots, config.getoption("wsconf_expectations") or EXPECTATIONS_DIR, cache,
              results, f"{results}.outputs" if results else None, getattr(config.option, "xmlpath", None)]
    return confine.choose(mode(config), hidden=hidden, shown=[*(Path(root) / "fixtures" for root in roots), *beside])


def describe(adapter) -> str:
    """The confinement line of the run: the adapter's, or why an in-process one has none."""
    confinement = getattr(adapter, "confinement", None)
    if isinstance(confinement, Confinement):
        return confinement.describe()
    return (f"{confine.UNCONFINED}: the implementation ({getattr(adapter, 'name', '?')}) runs inside the "
            "harness's own process: only watched")
