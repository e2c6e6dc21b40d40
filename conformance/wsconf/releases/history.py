"""A matrix folder (matrix.py): one results file per release under <version>/results.jsonl (read whole,
or as digests), and the status of its last run beside it."""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..results.digest import Digest, load_digest
from ..results.records import Results, load_results
from ..spec.versions import key


def load_matrix(folder: str | Path) -> dict[str, Results]:
    """version -> its results, oldest first, for every release of the folder that has a results file."""
    found = {}
    for results in sorted(Path(folder).glob("*/results.jsonl")):
        version = results.parent.name
        if re.fullmatch(r"\d+\.\d+\.\d+", version):
            found[version] = load_results(results)
    return dict(sorted(found.items(), key=lambda item: key(item[0])))


def status(folder: str | Path, version: str) -> dict | None:
    path = Path(folder) / version / "status.json"
    return json.loads(path.read_text()) if path.is_file() else None


def load_digests(folder: str | Path) -> dict[str, Digest]:
    """version -> the digest of its results (results/digest.py, cached beside them), oldest first: what
    the changelog and the site read, without parsing every record of every release."""
    found = {}
    for results in Path(folder).glob("*/results.jsonl"):
        if re.fullmatch(r"\d+\.\d+\.\d+", results.parent.name):
            found[results.parent.name] = load_digest(results)
    return dict(sorted(found.items(), key=lambda item: key(item[0])))


def without_results(folder: str | Path) -> list[str]:
    """The releases of the folder that have no results file yet (a matrix run still going, or failed)."""
    names = [p.name for p in Path(folder).iterdir() if p.is_dir() and re.fullmatch(r"\d+\.\d+\.\d+", p.name)]
    return sorted((v for v in names if not (Path(folder) / v / "results.jsonl").is_file()), key=key)
