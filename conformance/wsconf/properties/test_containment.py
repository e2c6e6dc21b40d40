"""The containment fuzzer: generated hostile paths through every filesystem tool, against any
adapter. The oracle is the harness's own: the token in every file outside the root (a result that
holds one leaked it) and the fingerprint of everything around the root (a change is an escape).

Known and pinned: @mastra/core 1.71.0 lets write_file and mkdir create a NEW file or folder
through a symlink in the root that points outside (at a folder, or a dangling link at a missing
target), because its realpath check skips targets that do not exist yet. The spec pins it
(write_file.containment.symlink_dir_new_file_escapes, write_file.containment.dangling_symlink_escapes,
mkdir.containment.symlink_dir_new_subdir_escapes); here such a change is an explained escape,
counted on its own line of the summary. Any other change, and any leak, fails the property."""
from __future__ import annotations

import os
import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ..isolation.leaks import leaks
from ..isolation.sizes import clipped
from ..isolation.tree import run_dir
from .conftest import FUZZ, FUZZ_PATHS
from .strategies import plain_segment, unicode_segment

NFC = unicodedata.normalize("NFC", "café.txt")
NFD = unicodedata.normalize("NFD", "café.txt")
# Symlinks in the root: chains, loops, dangling links inside and out, links to every file around.
LINKS = {"out": "{outside}", "out-rel": "../outside", "chain1": "chain2", "chain2": "chain3", "chain3": "{outside}",
         "loop1": "loop2", "loop2": "loop1", "self": "self", "dangling": "missing.txt",
         "dangling-out": "{outside}/gone.txt", "dangling-deep": "{outside}/made/new.txt", "in": "sub", "canary": "../CANARY", "sibling": "../sibling",
         "secret": "{outside}/.wsconf-secret", "home": "{run}/home", "tmp": "{run}/tmp", "run": "{run}"}
FILES = {"inside.txt": "inside\n", "sub/inner.txt": "inner\n", NFC: "nfc\n"}
PINNED = ("write_file.containment.symlink_dir_new_file_escapes, write_file.containment.dangling_symlink_escapes, "
          "mkdir.containment.symlink_dir_new_subdir_escapes")
CREATORS = ("mastra_workspace_write_file", "mastra_workspace_mkdir")

segment = st.one_of(
    st.sampled_from([*LINKS, *FILES, "sub", "inner.txt", NFD, "missing", "made", "new.txt", ".wsconf-secret",
                     "CANARY", "sibling", "outside", "root", "home", "tmp", "..", ".", "", "~", "~root",
                     "a" * 255, "a" * 256, "x\x00y", "\x00"]),
    plain_segment, unicode_segment)
lead = st.sampled_from(["", "/", "//", "./", "../", "../../", "~/", "~", "{root}/", "{outside}/", "{base}/",
                        "{run}/", "{run}/home/", "{run}/tmp/", "/tmp/", "/etc/", "//{root}/", "{root}/../"])
trail = st.sampled_from(["", "/", "//", "/.", "/..", "\x00"])
paths = st.one_of(
    st.builds(lambda a, parts, z: a + "/".join(parts) + z, lead, st.lists(segment, min_size=0, max_size=6), trail),
    st.builds(lambda n: "a/" * n, st.integers(2040, 2100)),       # past PATH_MAX
)


def _fill(text: str, tree) -> str:
    return (text.replace("{root}", str(tree.root)).replace("{outside}", str(tree.outside))
            .replace("{base}", str(tree.base)).replace("{run}", str(run_dir())))


def _lay(tree) -> None:
    for rel, content in FILES.items():
        (tree.root / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree.root / rel).write_text(content)
    for rel, target in LINKS.items():
        os.symlink(_fill(target, tree), tree.root / rel)


def _calls(path: str):
    return [("mastra_workspace_read_file", {"path": path}),
            ("mastra_workspace_file_stat", {"path": path}),
            ("mastra_workspace_list_files", {"path": path, "showHidden": True}),
            ("mastra_workspace_grep", {"pattern": "wsconf|inside", "path": path, "includeHidden": True}),
            ("mastra_workspace_edit_file", {"path": path, "old_string": "s", "new_string": "S"}),
            ("mastra_workspace_write_file", {"path": path, "content": "fuzz"}),
            ("mastra_workspace_mkdir", {"path": path}),
            ("mastra_workspace_delete", {"path": path, "recursive": True})]


def _through_link(root: str, path: str) -> str | None:
    """Where `path` really lands when, read as written, it stays in the root but passes a symlink
    that leads outside; None otherwise."""
    try:
        written = os.path.normpath(os.path.join(root, path))
        real = os.path.realpath(written)
    except ValueError:  # a NUL byte
        return None
    inside = lambda p: p == root or p.startswith(root + "/")  # noqa: E731
    return real if inside(written) and not inside(real) else None


def _explained(tool: str, args: dict, changes: dict, root: str) -> bool:
    """The pinned escape: a creating tool made only new entries, the link's real target and the
    folders on the way to it."""
    real = _through_link(root, args["path"])
    return tool in CREATORS and real is not None and all(
        before == "absent" and (p == real or real.startswith(p + "/")) for p, (before, _) in changes.items())


@settings(max_examples=FUZZ_PATHS)
@given(path=paths)
# Always tried: the pinned escapes (a link to a folder, a chain, a dangling link) and the plain attacks.
@example(path="out/new.txt")
@example(path="chain1/made/deeper")
@example(path="dangling-out")
@example(path="../outside/.wsconf-secret")
@example(path="secret")
@example(path="canary")
@example(path="sibling/CANARY")
@example(path="loop1/x")
@example(path=NFD)
@example(path="{root}/../CANARY")
def test_no_generated_path_escapes_the_root(adapter, open_workspace, path):
    with open_workspace(adapter, setup=_lay, watch=False) as ws:
        tree = ws.tree
        path = _fill(path, tree)
        before = tree.fingerprint_outside()
        FUZZ["paths"] += 1
        for tool, args in _calls(path):
            result = ws.call(tool, args)
            FUZZ["calls"] += 1
            leaked = leaks(result, tree.tokens, lambda p: False)
            if leaked:
                FUZZ["unexplained"] += 1
                raise AssertionError(f"{tool}({args!r}) " + "; ".join(leaked) + f": {clipped(result, 2000)!r}")
            after = tree.fingerprint_outside()
            changes = {p: (before.get(p, "absent"), after.get(p, "absent"))
                       for p in set(before) | set(after) if before.get(p) != after.get(p)}
            if changes and not _explained(tool, args, changes, str(tree.root)):
                FUZZ["unexplained"] += 1
                raise AssertionError(f"{tool}({args!r}) changed files outside the root: {changes!r}; "
                                     f"result {clipped(result, 2000)!r}")
            if changes:
                FUZZ["explained"] += 1
                FUZZ[f"explained {tool}"] += 1
            before = after
