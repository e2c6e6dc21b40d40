"""`wsconf init`, `bridge` and `expectations`: a port's set-up and its list of known failures."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import configured


def cmd_init(args) -> int:
    from ..port.scaffold import init
    return init(Path(args.directory), args.adapter, args.implementation, args.tools, args.force)


def cmd_bridge(args) -> int:
    from ..adapters.base import AdapterFault
    from ..adapters.node_bridge import bridge_dir
    try:
        folder = bridge_dir()
    except AdapterFault as exc:
        print(f"wsconf bridge install: {exc}", file=sys.stderr)
        return 1
    print(folder)
    return 0


def draft_reason(record: dict) -> str:
    """A new failure's reason until someone reviews it: its group's (session/findings.py), so one
    cause reads the same in every case it fails."""
    from ..judge.harm import TITLES
    if record.get("signature"):
        harm, _, rest = record["signature"].partition(" | ")
        return f"REVIEW: {TITLES.get(harm, harm)}: {rest}"
    text = (record.get("detail") or record.get("message") or "").strip()
    return f"REVIEW: {text.splitlines()[0][:200] if text else record['outcome']}"


def cmd_expectations(args) -> int:
    """Rewrite an implementation's expectations file from a results file, for review."""
    from ..reports.table import load_results
    from ..session import expectations
    records = load_results(args.results)
    # the folder `wsconf run` reads: --expectations, else the port's config, else the bundled one
    folder = configured(args, "expectations")
    current = expectations.load(args.implementation, folder)
    failures = {}
    for r in records:
        if r["outcome"] in ("failed", "error", "xfail"):
            failures[r["id"]] = current.get(r["id"]) or draft_reason(r)
    fresh = expectations.fresh_differences(args.implementation, folder)  # kept as they are
    if not args.update:
        print(expectations.render(args.implementation, failures, fresh), end="")  # the file --update would write
        return 0
    path = expectations.write(args.implementation, failures, folder, fresh)
    new = sorted(set(failures) - set(current))
    gone = sorted(set(current) - set(failures))
    print(f"wrote {path}: {len(failures)} entries ({len(new)} new, {len(gone)} removed). "
          "Replace every 'REVIEW:' with the real reason before committing.", file=sys.stderr)
    return 0


def register(sub) -> None:
    ini = sub.add_parser("init", help="start a port's wsconf setup: wsconf.toml, an expectations file, a CI workflow")
    ini.add_argument("--adapter", required=True, help='how to run the port, e.g. "cmd:node port.mjs"')
    ini.add_argument("--implementation", required=True, help="the name its hello reports (names the expectations file)")
    ini.add_argument("--tools", default=None, help="comma-separated tools it implements (default: all)")
    ini.add_argument("--directory", default=".", help="the port's repository (default: here)")
    ini.add_argument("--force", action="store_true", help="overwrite existing files")
    ini.set_defaults(func=cmd_init)

    br = sub.add_parser("bridge", help="the upstream bridge (the mastra adapters): `wsconf bridge install`")
    br.add_argument("action", choices=["install"], help="npm ci the bundled bridge into the user cache; prints its folder")
    br.set_defaults(func=cmd_bridge)

    exp = sub.add_parser("expectations", help="show or rewrite an implementation's expected failures from a results file")
    exp.add_argument("implementation", help='the implementation name, e.g. "@mastra/core" or wsref')
    exp.add_argument("results", help="a results file from `wsconf run --results`")
    exp.add_argument("--expectations", default=None,
                     help="folder of expectations files (default: the config's `expectations`, else the bundled "
                          "conformance/expectations)")
    exp.add_argument("--update", action="store_true", help="rewrite <expectations folder>/<implementation>.yaml")
    exp.set_defaults(func=cmd_expectations, reads_config=True)
