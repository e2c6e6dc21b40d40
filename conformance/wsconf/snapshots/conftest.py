"""Fixtures for the snapshot tests: the adapter, a workspace holding fixtures/repo, and the
one-plain-text-file-per-snapshot extension (diff-friendly in review)."""
from __future__ import annotations

import shutil

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from ..adapters.registry import load_adapter
from ..isolation.tree import make_tree
from ..spec.resources import data_path

REPO_FIXTURE = data_path("fixtures/repo")

# The files the fixture's own .gitignore names. They are written at copy time rather than kept in
# git, so the repository holds no node_modules/, dist/ or .env of its own.
IGNORED_FILES = {
    ".env": "SECRET=not-for-listing\n",
    "debug.log": "log line\n" * 3,
    "node_modules/left-pad/index.js": "module.exports = s => s;\n",
    "dist/index.js": "console.log('built');\n",
}


class TextSnapshot(SingleFileSnapshotExtension):
    """One UTF-8 .txt file per snapshot, holding the exact output with the root made portable."""

    _write_mode = WriteMode.TEXT
    file_extension = "txt"

    def serialize(self, data, **kwargs):
        return data


@pytest.fixture
def snapshot_text(snapshot):
    return snapshot.use_extension(TextSnapshot)


@pytest.fixture(scope="session")
def adapter(request):
    a = load_adapter(request.config.getoption("wsconf_adapter"), request.config.getoption("wsconf_timeout"))
    yield a
    a.close()


@pytest.fixture
def repo_workspace(adapter):
    """An open session on a fresh copy of fixtures/repo; yields (session, root)."""
    tree = make_tree("wsconf-snap-")
    shutil.rmtree(tree.root)
    shutil.copytree(REPO_FIXTURE, tree.root)
    for rel, text in IGNORED_FILES.items():
        (tree.root / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree.root / rel).write_text(text, encoding="utf-8")
    tree.hand_over(tree.root)  # the copy is the implementation's (a confined one runs as a uid of its own)
    session = adapter.open(str(tree.root), str(tree.outside), str(tree.home), {"sandbox": {}})
    try:
        yield session, str(tree.root)
    finally:
        session.close()
        tree.remove()
