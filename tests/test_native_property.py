"""Property (issue 17): list_files and grep give the same output with and without a provider's
native walk()/grep() (the native_fs test provider), over generated trees and arguments.

Runs on the reference, and on the upstream bridge when it is installed (the same adapters the
suite uses), so a port that adds native methods can be held to it the same way."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from wsconf.adapters.registry import load_adapter
from wsconf.isolation.tree import make_tree as case_tree

NAMES = ["a.txt", "b.md", "c.ts", ".hidden.txt", "img.png", "notes", "src", "lib", ".cfg", "node_modules"]
WORDS = ["alpha", "beta", "TODO fix", "todo later", "gamma delta", "", "x = 1", "Alpha beta"]


def make_tree(root: Path, rng: random.Random, depth: int = 0) -> None:
    for name in rng.sample(NAMES, rng.randint(1, 5)):
        path = root / name
        if depth < 3 and rng.random() < 0.35 and "." not in name[1:]:
            path.mkdir(exist_ok=True)
            make_tree(path, rng, depth + 1)
        elif not path.exists():
            path.write_text("\n".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6))) + rng.choice(["", "\n"]))
    if depth == 0 and rng.random() < 0.5:
        (root / ".gitignore").write_text(rng.choice(["*.md\n", "lib/\n", "src/c.ts\n", "notes\n"]))


def calls(rng: random.Random) -> list[tuple[str, dict]]:
    out = []
    for _ in range(4):
        out.append(("mastra_workspace_list_files", {
            "path": rng.choice([".", "src", "./src", "lib", "src/"]), "maxDepth": rng.randint(1, 4),
            "showHidden": rng.random() < 0.5, **({"pattern": "*.ts"} if rng.random() < 0.3 else {})}))
        args = {"pattern": rng.choice(["alpha", "TODO", "todo", "a", "^x", "be+ta"]),
                "path": rng.choice([".", "src", "**/*.ts", "./lib/"]), "caseSensitive": rng.random() < 0.6,
                "includeHidden": rng.random() < 0.4, "contextLines": rng.choice([0, 0, 1, 2])}
        if rng.random() < 0.3:
            args["maxCount"] = rng.randint(1, 2)
        out.append(("mastra_workspace_grep", args))
    return out


def adapters():
    names = ["reference"]
    if (Path(__file__).parent.parent / "tools/mastra-bridge/node_modules/@mastra/core").is_dir():
        names.append("mastra")
    return names


@pytest.mark.parametrize("adapter_name", adapters())
def test_native_walk_grep_change_nothing(adapter_name):
    adapter = load_adapter(adapter_name)
    try:
        for seed in range(12):
            rng = random.Random(seed)
            tree = case_tree("wsconf-native-")  # a case's folder: where a confined implementation may work
            try:
                root, base = tree.root, tree.base
                make_tree(root, rng)
                tree.hand_over(root)
                plain = adapter.open(str(root), str(base), str(base), {})
                native = adapter.open(str(root), str(base), str(base), {"native": {"walk": "local", "grep": "local"}})
                try:
                    for tool, args in calls(rng):
                        assert native.call(tool, args) == plain.call(tool, args), (seed, tool, args)
                finally:
                    plain.close()
                    native.close()
            finally:
                tree.remove()
    finally:
        adapter.close()
