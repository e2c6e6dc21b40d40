"""Rewrite conformance/wsconf/session/waits.json from results files: for every case that took
WAITING seconds or more in each of them that ran it, the shortest time measured (rounded to 10 ms):
what the case waits whatever the load (a loaded run once measured an lsp case at 21 s instead of 1.4).

    python -m tools.bench.waits results/reference.jsonl results/mastra.jsonl

The file only decides which cases a run with workers starts first (session/scheduling.py): a case it
lacks is dealt with the others, and each implementation's own last run overrides it.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from wsconf.results.records import ResultsError, load_results
from wsconf.session.scheduling import SHIPPED, WAITING


def shortest(paths: list[Path]) -> dict[str, float]:
    found: dict[str, float] = {}
    for path in paths:
        for record in load_results(path, require_end=True).records.values():
            seconds = record.get("duration")
            if record.get("fresh") or record.get("outcome") != "passed" or not isinstance(seconds, (int, float)):
                continue
            found[record["id"]] = min(found.get(record["id"], float("inf")), round(float(seconds), 2))
    return {case: seconds for case, seconds in found.items() if seconds >= WAITING}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=SHIPPED)
    args = parser.parse_args(argv)
    try:
        found = shortest(args.results)
    except ResultsError as exc:
        print(f"waits: {exc}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(dict(sorted(found.items())), indent=0) + "\n", encoding="utf-8")
    print(f"waits: {len(found)} waiting cases, {sum(found.values()):.1f} s in all -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
