"""Differential mode: the same generated inputs against two implementations; every difference is
reported. Runs only with --wsconf-compare OTHER (e.g. reference against mastra).

Two fuzzers: generated trees read through a few tools, and Node's edges tool by tool
(tool_calls.py), whose calls are counted in the summary (`--fuzz-calls`, 5,000 or more in CI)."""
from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ..adapters.base import OpenError
from .conftest import DIFFERENTIAL, FUZZ_CALLS
from .outcomes import Outcome, fill, lay_out, tree_state
from .strategies import byte_content, path_string, plain_segment
from .tool_calls import CALLS_PER_EXAMPLE, FAMILIES, START_DIRS, START_FILES

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


# --- Node's edges, tool by tool ------------------------------------------------------------------

EXAMPLES = max(1, math.ceil(FUZZ_CALLS / (len(FAMILIES) * CALLS_PER_EXAMPLE)))
SHOWN = 12   # differences printed per tool (the shortest inputs first); all are counted


def _outcome(impl, open_workspace, workspace: dict, calls: list) -> tuple[list[str], list[str]]:
    """The normalised answers of `calls` in a fresh session of `impl`, and the tree they left."""
    ws = open_workspace(impl, workspace=workspace, setup=lambda tree: lay_out(tree.root, START_FILES, START_DIRS))
    try:
        ws.__enter__()
    except OpenError as exc:   # the implementation refused the workspace block: its answer
        ws.tree.remove()
        return [f"open: {json.dumps(exc.result, sort_keys=True)}"], []
    try:
        out = Outcome(str(ws.tree.root), str(ws.tree.outside), str(ws.tree.home))
        for kind, name, args in calls:
            # As the wire carries it: a high and a low surrogate side by side are one character.
            args = json.loads(json.dumps(fill(args, out.names())))
            out.record(ws.call(name, args) if kind == "call" else ws.session.fs(name, args))
        return out.answers, tree_state(str(ws.tree.root))
    finally:
        ws.__exit__(None, None, None)


def _differing(a: str, b: str, width: int = 150) -> tuple[str, str]:
    """The two answers around where they first differ (each a JSON text)."""
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, at - width)
    cut = lambda t: ("..." if start else "") + t[start:at + width] + ("..." if len(t) > at + width else "")  # noqa: E731
    return cut(a), cut(b)


def _shown(value) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 300 else f"{text[:300]}... ({len(text):,} characters)"


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_differential_node_edges(adapter, other_adapter, open_workspace, family):
    """Every string argument and option that reaches Node, with Node's edges (node_edges.py), and
    the numbers at JavaScript's: both implementations give the same answers and leave the same tree."""
    if other_adapter is None:
        pytest.skip("differential mode needs --wsconf-compare OTHER")
    found = []

    @settings(max_examples=EXAMPLES)
    @given(workspace=family.workspace, calls=family.calls)
    def run(workspace, calls):
        (answers_a, tree_a), (answers_b, tree_b) = (_outcome(impl, open_workspace, workspace, calls)
                                                    for impl in (adapter, other_adapter))
        DIFFERENTIAL["calls"] += len(calls)
        DIFFERENTIAL[f"calls {family.name}"] += len(calls)
        for i, ((kind, name, args), a, b) in enumerate(zip(calls, answers_a, answers_b)):
            if a != b:
                before = "".join(f"\n  after {n}({_shown(x)})" for _, n, x in calls[:i])
                shown_a, shown_b = _differing(a, b)
                found.append((len(json.dumps(args)), f"{name}({_shown(args)}) in {_shown(workspace)}:{before}\n"
                                                     f"  {adapter.name}: {shown_a}\n  {other_adapter.name}: {shown_b}"))
                break
        else:
            if answers_a != answers_b or tree_a != tree_b:
                gone, new = sorted(set(tree_a) - set(tree_b)), sorted(set(tree_b) - set(tree_a))
                found.append((len(json.dumps(calls)), f"{_shown(calls)} in {_shown(workspace)}: the trees differ: "
                                                      f"{adapter.name} only {gone}, {other_adapter.name} only {new}"))

    run()
    DIFFERENTIAL["differences"] += len(found)
    DIFFERENTIAL[f"differences {family.name}"] += len(found)
    if found:
        shown = "\n".join(text for _, text in sorted(found)[:SHOWN])
        pytest.fail(f"{len(found)} of {EXAMPLES} examples differ (the first differing call of each; "
                    f"{min(SHOWN, len(found))} shortest shown):\n{shown}", pytrace=False)
