"""Rewrite conformance/wsconf/session/waits.json from results files: for every case that took
WAITING seconds or more in any of them, the longest time measured (rounded to 10 ms).

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


def longest(paths: list[Path]) -> dict[str, float]:
    found: dict[str, float] = {}
    for path in paths:
        for record in load_results(path, require_end=True).records.values():
            seconds = record.get("duration")
            if record.get("fresh") or not isinstance(seconds, (int, float)) or seconds < WAITING:
                continue
            found[record["id"]] = max(found.get(record["id"], 0.0), round(float(seconds), 2))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=SHIPPED)
    args = parser.parse_args(argv)
    try:
        found = longest(args.results)
    except ResultsError as exc:
        print(f"waits: {exc}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(dict(sorted(found.items())), indent=0) + "\n", encoding="utf-8")
    print(f"waits: {len(found)} waiting cases, {sum(found.values()):.1f} s in all -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
