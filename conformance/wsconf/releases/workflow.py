"""The GitHub Actions workflow of a sharded release matrix (`wsconf init --matrix N`): one job per
shard (`wsconf matrix run --shard I/N`, its folder uploaded as an artifact), then a merge job
(`wsconf matrix merge`, then the ranges, the changelog and the site from the merged matrix)."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

PATH = Path(".github") / "workflows" / "wsconf-matrix.yml"

WORKFLOW = '''# The suite on every stable @mastra/core release, dealt to {count} jobs (`wsconf init --matrix {count}`).
name: wsconf-matrix
on:
  workflow_dispatch:         # by hand: after the cases change, or to take the ranges again
jobs:
  shard:
    name: shard ${{{{ matrix.shard }}}}/{count}
    runs-on: ubuntu-latest
    timeout-minutes: 180
    strategy:
      fail-fast: false       # a failed shard is run again alone ("Re-run failed jobs"); the others are kept
      matrix:
        shard: [{shards}]
    steps:
{setup}      - uses: actions/setup-node@v4        # each release's bridge is installed with npm
        with:
          node-version: "20"
      # the isolation_bwrap cases run where bwrap is (unsupported without it): as on the machine that measured the ranges
      - run: sudo apt-get update && sudo apt-get install -y bubblewrap
      # every job deals the same pairs: the same spec, releases and durations
      - run: wsconf matrix run --shard ${{{{ matrix.shard }}}}/{count} --matrix shard -n {workers}{durations}
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: wsconf-matrix-shard-${{{{ matrix.shard }}}}
          path: shard/
  merge:
    needs: shard
    runs-on: ubuntu-latest
    steps:
{setup}      - uses: actions/download-artifact@v4
        with:
          pattern: wsconf-matrix-shard-*
          path: shards                       # one folder per shard
      # refuses shards of another spec or deal, a pair run twice or not at all, naming the file
      - run: wsconf matrix merge shards/* --matrix matrix
      - run: wsconf matrix ranges --matrix matrix | tee ranges.txt     # each case's `versions`, as measured
      - run: wsconf changelog --matrix matrix -o BEHAVIOUR-CHANGES.md
      - run: wsconf site --matrix matrix --changes BEHAVIOUR-CHANGES.md -o site
      - uses: actions/upload-artifact@v4
        with:
          name: wsconf-matrix
          path: |
            matrix/
            site/
            BEHAVIOUR-CHANGES.md
            ranges.txt
'''

SETUP = '''      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      # wsconf is not on PyPI yet: this installs the wheel file or git URL `wsconf init --install` named
      - run: python -m pip install {install}
'''


def matrix_workflow(count: int, install: str, workers: str = "2", durations: list[str] | None = None) -> str:
    return WORKFLOW.format(
        count=count, shards=", ".join(str(i) for i in range(1, count + 1)), workers=workers,
        durations="".join(f" --durations {shlex.quote(d)}" for d in durations or []),
        setup=SETUP.format(install=json.dumps(install)))


def write_matrix_workflow(directory: Path, count: int, install: str, force: bool, durations: list[str] | None = None,
                          out=print) -> int:
    if count < 1:
        print(f"wsconf init: --matrix {count}: the number of shards is 1 or more", file=sys.stderr)
        return 2
    path = directory / PATH
    if path.exists() and not force:
        print(f"wsconf init: {path} exists already (use --force to overwrite)", file=sys.stderr)
        return 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(matrix_workflow(count, install, durations=durations), encoding="utf-8")
    out(f"wrote {path}: {count} shard jobs and a merge job")
    out(f"the jobs install wsconf with `pip install {install}`; every shard job must deal the same pairs, so "
        "they share the spec (the same install), the releases and the --durations files (committed, or none)")
    return 0
