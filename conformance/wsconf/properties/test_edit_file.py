"""edit_file with a unique match equals one replacement on the file's text, byte for byte."""
from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

EDIT = "mastra_workspace_edit_file"
pieces = st.text(alphabet=st.sampled_from("ab$&'`\n\r\t 😀中\ufeff"), max_size=30)


@given(before=pieces, old=pieces.filter(bool), after=pieces, new=pieces)
def test_unique_match_is_one_literal_replacement(adapter, open_workspace, before, old, after, new):
    content = before + old + after
    assume(content.count(old) == 1)  # non-overlapping, as the upstream counts with indexOf
    with open_workspace(adapter, setup=lambda tree: (tree.root / "f.txt").write_bytes(content.encode())) as ws:
        result = ws.call(EDIT, {"path": "f.txt", "old_string": old, "new_string": new})
        assert result["kind"] == "text", result
        # The first occurrence is replaced, which need not be the one after `before`: in three
        # apostrophes, two apostrophes occur once (non-overlapping), at index 0.
        assert (ws.tree.root / "f.txt").read_bytes() == content.replace(old, new, 1).encode()


@given(text=pieces, old=pieces.filter(bool))
def test_no_match_or_many_matches_leave_the_file_alone(adapter, open_workspace, text, old):
    assume(text.count(old) != 1)
    with open_workspace(adapter, setup=lambda tree: (tree.root / "f.txt").write_bytes(text.encode())) as ws:
        result = ws.call(EDIT, {"path": "f.txt", "old_string": old, "new_string": "X"})
        assert result["kind"] == "text", result  # returned as text, not thrown
        assert (ws.tree.root / "f.txt").read_bytes() == text.encode()
