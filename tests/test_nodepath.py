"""wsref.js.node_path follows Node's path.posix exactly (checked live against node when it is installed)."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from wsref.js import node_path as p

PATHS = ["", "/", "//a//b/", "a/../..", "../a/./b/", "/a/b/../../..", "a/", "./", ".", "..", "a/..",
         "/..foo/..", "x/...", "/a/b/c/", "~/x", "a//b", "/a/./b/.", "..a", ".a", "a.", "a.b.c", "/x/.hidden"]


def ours(c):
    return [p.normalize(c), p.resolve("/base/x", c), p.relative("/base/x", p.resolve("/base/x", c)),
            p.dirname(c), p.basename(c), p.extname(c), p.join("/r", c)]


NODE_SCRIPT = """const p=require('path').posix; const cs=JSON.parse(process.argv[1]);
console.log(JSON.stringify(cs.map(c=>[p.normalize(c), p.resolve('/base/x', c), p.relative('/base/x', p.resolve('/base/x',c)), p.dirname(c), p.basename(c), p.extname(c), p.join('/r', c)])));"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: nothing to compare against")
def test_matches_node_path_posix():
    out = subprocess.run(["node", "-e", NODE_SCRIPT, json.dumps(PATHS)], capture_output=True, text=True, check=True)
    node = json.loads(out.stdout)
    assert {c: ours(c) for c in PATHS} == {c: n for c, n in zip(PATHS, node)}


def test_known_differences_from_os_path():
    assert p.normalize("//a//b/") == "/a/b/"      # os.path.normpath keeps '//' and drops the '/'
    assert p.relative("/r", "/r/..x") == "..x"     # why '..x' counts as outside upstream
    assert p.extname("..") == "" and p.extname(".env") == ""
