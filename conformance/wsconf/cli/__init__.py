"""The `wsconf` command: one module per group of subcommands, each adding its parsers (`register`).

    run.py       run, properties, snapshots, smoke     against an implementation
    port.py      init, bridge, expectations            a port's set-up and known failures
    spec.py      list, show, coverage, lint, export    the spec without reading YAML
    reports.py   report, compare                       tables and differences from runs
    releases.py  matrix, changelog, site               across @mastra/core releases

The top of the house: it may import every other room, and none imports it.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from . import port, releases, reports, run, spec

GROUPS = (run, port, spec, reports, releases)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="wsconf", description="Conformance suite for the Mastra workspace tools")
    p.add_argument("--spec", default=None, help="spec directory (default: the bundled spec, or the checkout's spec/)")
    p.add_argument("--config", default=None,
                   help="a wsconf.toml or pyproject.toml with [tool.wsconf] (default: found from the current folder up)")
    sub = p.add_subparsers(dest="command", required=True)
    for group in GROUPS:
        group.register(sub)
    return p


def main(argv=None) -> int:
    from ..session.config import ConfigError, find_config, load_config
    args = build_parser().parse_args(argv)
    reads_config = getattr(args, "reads_config", False)  # run and expectations find the port's config
    try:
        path = Path(args.config) if args.config else (find_config() if reads_config else None)
        args.config = load_config(path) if path else None
    except (ConfigError, OSError) as exc:
        print(f"wsconf: bad config: {exc}", file=sys.stderr)
        return 2
    try:
        return args.func(args)
    except BrokenPipeError:
        # The reader went away (`wsconf list | head`): stop quietly, as a program killed by SIGPIPE does,
        # with stdout pointed at /dev/null so the interpreter's last flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
