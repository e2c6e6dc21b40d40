"""Run a command and append its CPU time (user + system, its children included) to a file.

    python tools/bench/cputime.py OUT.txt node tools/mastra-bridge/bridge.mjs

The suite benchmark runs the bridge through this (as the `cmd:` adapter), so the bridge's share of
a run is measured apart from the harness's: stdin and stdout pass straight through.
"""
from __future__ import annotations

import os
import sys


def main() -> int:
    out, argv = sys.argv[1], sys.argv[2:]
    pid = os.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    _, status, usage = os.wait4(pid, 0)
    with open(out, "a", encoding="utf-8") as fh:
        fh.write(f"{usage.ru_utime + usage.ru_stime:.4f}\n")
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
