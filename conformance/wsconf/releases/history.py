"""A matrix folder (matrix.py): one results file per release under <version>/results.jsonl, and the
status of its last run beside it."""
from __future__ import annotations

import json
import re
from pathlib import Path

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
