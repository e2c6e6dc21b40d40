"""What a built site links to that is not there: a file, or an anchor on a page. The test command
checks its site with it, and tools/bench/site.py the site it times."""
from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

_TARGET = re.compile(r'(?:href|src)="([^"]+)"')
_ID = re.compile(r'id="?([^" >]+)')


def broken_links(out: Path) -> list[str]:
    """Every link of every page under `out` that leads nowhere, as `page -> target` (why, if an anchor)."""
    broken, ids = [], {}
    for path in sorted(out.rglob("*.html")):
        rel = path.relative_to(out).as_posix()
        for target in _TARGET.findall(path.read_text(encoding="utf-8")):
            parts = urlsplit(html.unescape(target))
            if parts.scheme or target.startswith("#"):
                continue
            dest = (path.parent / unquote(parts.path)).resolve()
            if not dest.is_file():
                broken.append(f"{rel} -> {target}")
            elif parts.fragment and dest.suffix == ".html":
                if dest not in ids:
                    ids[dest] = set(_ID.findall(dest.read_text(encoding="utf-8")))
                if parts.fragment not in ids[dest]:
                    broken.append(f"{rel} -> {target} (no such anchor)")
    return broken
