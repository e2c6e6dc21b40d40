"""Sandbox utilities (upstream `sandbox/utils.ts`): shell quoting for executeCommand's args."""
from __future__ import annotations

import re

_SAFE = re.compile(r"[a-zA-Z0-9._\-/=:@]+")


def shell_quote(arg: str) -> str:
    """`shellQuote`: safe characters pass through; anything else is single-quoted, quotes escaped."""
    if _SAFE.fullmatch(arg):
        return arg
    return "'" + arg.replace("'", "'\\''") + "'"
