"""Differential mode: the same generated inputs against two implementations; every difference is
reported. Runs only with --wsconf-compare OTHER (e.g. reference against mastra)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from .strategies import byte_content, path_string, plain_segment

TREE = st.dictionaries(st.lists(plain_segment, min_size=1, max_size=3).map("/".join), byte_content, max_size=6)

CALLS = st.one_of(
    st.builds(lambda p, o, l, n: ("mastra_workspace_read_file", {"path": p, **({"offset": o} if o else {}),
                                                                  **({"limit": l} if l else {}), "showLineNumbers": n}),
              path_string, st.none() | st.integers(1, 5), st.none() | st.integers(1, 5), st.booleans()),
    st.builds(lambda p: ("mastra_workspace_list_files", {"path": p}), st.sampled_from([".", "a", "..", "/"])),
    st.builds(lambda pat, ci: ("mastra_workspace_grep", {"pattern": pat, "caseSensitive": ci}),
              st.sampled_from(["a", "^.", "\\d+", "[😀中]", "x|y", "(?<n>a)\\k<n>", "\\bb", "$"]), st.booleans()),
    st.builds(lambda p, old, new: ("mastra_workspace_edit_file", {"path": p, "old_string": old, "new_string": new}),
              path_string, st.text(max_size=4), st.text(max_size=4)),
    st.builds(lambda p: ("mastra_workspace_file_stat", {"path": p}), path_string),
)


def _normal(result: dict, root: str, outside: str) -> str:
    text = json.dumps(result, sort_keys=True)
    # Roots differ between the two runs; stat times differ by nature.
    text = text.replace(root, "{{root}}").replace(outside, "{{outside}}")
    import re
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", "{{iso_time}}", text)


def _lay(tree, files):
    for rel, data in files.items():
        path = tree.root / rel
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except (NotADirectoryError, IsADirectoryError, FileExistsError):
            pass  # a generated tree can name a file and a directory alike: keep the first


@given(files=TREE, calls=st.lists(CALLS, min_size=1, max_size=4))
def test_two_implementations_answer_alike(adapter, other_adapter, open_workspace, files, calls):
    if other_adapter is None:
        pytest.skip("differential mode needs --wsconf-compare OTHER")
    outcomes = []
    for impl in (adapter, other_adapter):
        with open_workspace(impl, setup=lambda tree: _lay(tree, files)) as ws:
            outcomes.append([_normal(ws.call(tool, json.loads(json.dumps(args).replace("{root}", str(ws.tree.root))
                                                              .replace("{outside}", str(ws.tree.outside)))),
                                     str(ws.tree.root), str(ws.tree.outside)) for tool, args in calls])
    for (tool, args), a, b in zip(calls, *outcomes):
        assert a == b, f"{tool}({json.dumps(args, ensure_ascii=False)}):\n  {adapter.name}: {a}\n  {other_adapter.name}: {b}"
