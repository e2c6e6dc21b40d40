"""Former capabilities an implementation may still declare (`alias_of` in spec/capabilities.yaml):
`local_paths` stands for the four it was split into, so a port written before the split keeps
every case it ran."""
from __future__ import annotations

from functools import lru_cache

import yaml

from .resources import data_path


@lru_cache(maxsize=1)
def aliases() -> dict[str, tuple[str, ...]]:
    data = yaml.safe_load((data_path("spec") / "capabilities.yaml").read_text(encoding="utf-8")) or {}
    return {c["id"]: tuple(c["alias_of"]) for c in data.get("capabilities", []) if c.get("alias_of")}


def expand(declared) -> frozenset[str]:
    """The capabilities an implementation has, its aliases replaced by what they stand for."""
    out = set(declared)
    for name in list(out):
        out.update(aliases().get(name, ()))
    return frozenset(out)
