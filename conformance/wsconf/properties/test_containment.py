"""No generated path ever reaches outside the root; the canaries and outside/ stay untouched."""
from __future__ import annotations

import os

from hypothesis import given
from hypothesis import strategies as st

from .strategies import path_string

READ, WRITE, STAT, LIST = ("mastra_workspace_read_file", "mastra_workspace_write_file",
                           "mastra_workspace_file_stat", "mastra_workspace_list_files")
SECRET = "wsconf-outside-secret"


def _fill(p: str, ws) -> str:
    return p.replace("{outside}", str(ws.tree.outside)).replace("{root}", str(ws.tree.root))


@given(path=path_string, with_link=st.booleans())
def test_reads_never_reveal_outside_files(adapter, open_workspace, path, with_link):
    def setup(tree):
        (tree.outside / "secret.txt").write_text(SECRET)
        (tree.root / "inside.txt").write_text("inside")
        if with_link:
            os.symlink(tree.outside, tree.root / "link")
            os.symlink(tree.outside / "secret.txt", tree.root / "secret-link.txt")

    with open_workspace(adapter, setup=setup) as ws:
        for candidate in (_fill(path, ws), _fill(path, ws) + "secret.txt", "link/secret.txt", "secret-link.txt"):
            result = ws.call(READ, {"path": candidate})
            assert SECRET not in repr(result), f"read_file({candidate!r}) revealed a file outside the root"


@given(path=path_string)
def test_writes_never_change_anything_outside(adapter, open_workspace, path):
    """The canaries and the outside/ fingerprint fail the example if anything outside changes.

    Writes through the symlink go to a file that exists outside: @mastra/core 1.71.0 lets a write
    create a *new* file through a symlinked directory (its realpath check skips missing targets);
    that escape is pinned by write_file.containment.symlink_dir_new_file_escapes and listed in the
    errata (tools.write.contains_path), so the property checks everything else."""
    def setup(tree):
        os.symlink(tree.outside, tree.root / "link")
        (tree.outside / "y.txt").write_text("outside")

    with open_workspace(adapter, setup=setup) as ws:
        ws.call(WRITE, {"path": _fill(path, ws) + "x.txt", "content": "escaped?"})
        ws.call(WRITE, {"path": "link/y.txt", "content": "escaped?"})
        ws.call(WRITE, {"path": "link/../link/./y.txt", "content": "escaped?"})
