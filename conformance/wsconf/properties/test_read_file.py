"""read_file properties: write then read returns the content; the token window keeps its promises."""
from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from .strategies import text_content

READ, WRITE = "mastra_workspace_read_file", "mastra_workspace_write_file"
NOTICE = re.compile(r"\n\[output truncated: showing first ~(\d+) of ~(\d+) tokens\]$")


def _unpaired_surrogate(s: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in s)


@given(content=text_content)
def test_write_then_read_gives_back_the_content(adapter, open_workspace, content):
    with open_workspace(adapter) as ws:
        wrote = ws.call(WRITE, {"path": "f.txt", "content": content})
        assert wrote["kind"] == "text", wrote
        assert (ws.tree.root / "f.txt").read_bytes() == content.encode("utf-8", "surrogatepass")
        size = len(content.encode("utf-8", "surrogatepass"))
        read = ws.call(READ, {"path": "f.txt", "showLineNumbers": False})
        assert read == {"kind": "text", "value": f"f.txt ({size} bytes)\n{content}", "model": None}


@given(content=st.text(alphabet=st.sampled_from("😀中a b\n"), min_size=1, max_size=400),
       limit=st.integers(min_value=1, max_value=60))
def test_token_window_never_cuts_a_surrogate_pair_and_names_real_totals(adapter, open_workspace, content, limit):
    from wsref.js.tokenx import estimate_token_count  # the upstream's estimator, ported exactly
    with open_workspace(adapter, {"tools": {READ: {"maxOutputTokens": limit}}}) as ws:
        (ws.tree.root / "f.txt").write_text(content, encoding="utf-8")
        cut = ws.call(READ, {"path": "f.txt"})
        assert cut["kind"] == "text", cut
        assert not _unpaired_surrogate(cut["value"])
        # The same read without a window, for the real totals.
        ws.session.workspace("setToolsConfig", [{READ: {"maxOutputTokens": 10**9}}])
        ws.session.retool()
        full = ws.call(READ, {"path": "f.txt"})["value"]
        m = NOTICE.search(cut["value"])
        if estimate_token_count(full) <= limit:
            assert cut["value"] == full
            return
        assert m, cut["value"]
        assert (int(m.group(1)), int(m.group(2))) == (limit, estimate_token_count(full))
        kept = cut["value"][: m.start()]
        # What is kept is the start of the full output; a cut pair shows as U+FFFD at the end.
        assert full.startswith(kept) or (kept.endswith("\ufffd") and full.startswith(kept[:-1]))
