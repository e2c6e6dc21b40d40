"""grep's reader (LocalFilesystem.contained_reader) reads only what read_file would read, the same
bytes, and leaves every other path (links, names like "..x", special files, refused roots) to
read_file itself."""
from __future__ import annotations

import os

import pytest

from wsref.filesystem.local_filesystem import LocalFilesystem


@pytest.fixture
def tree(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (root / "a.txt").write_bytes(b"inside\n")
    (root / "..x.txt").write_bytes(b"dotdot name\n")
    (root / "sub" / "b.txt").write_bytes(b"\xff\xfe bytes\n")
    (outside / "secret.txt").write_bytes(b"secret\n")
    os.symlink(outside / "secret.txt", root / "out.txt")
    os.symlink(root / "a.txt", root / "in.txt")
    os.symlink(outside, root / "outdir")
    os.mkfifo(root / "pipe.txt")
    return root, outside


def outcome(fs, path):
    try:
        return fs.read_file(path)
    except Exception as exc:
        return type(exc).__name__


@pytest.mark.parametrize("options", [{}, {"contained": False}, {"allowedPaths": ["../outside"]}])
def test_reader_gives_read_files_bytes_or_defers(tree, options):
    root, outside = tree
    fs = LocalFilesystem(str(root), **options)
    fs.init()
    reader = fs.contained_reader()
    seen = {}
    for directory, name in [(".", "a.txt"), (".", "..x.txt"), ("./sub", "b.txt"), ("sub", "b.txt"),
                            (".", "out.txt"), (".", "in.txt"), ("./outdir", "secret.txt"),
                            (".", "pipe.txt"), (".", "missing.txt"), ("", "a.txt")]:
        path = f"{directory}/{name}"
        data = reader.read(directory, name)
        seen[path] = data
        if data is not None:
            assert data == fs.read_file(path), path
    # Plain files inside are read directly; everything that needs read_file's judgement defers.
    assert seen["./a.txt"] == b"inside\n" and seen["./sub/b.txt"] == b"\xff\xfe bytes\n"
    for path in ("./out.txt", "./in.txt", "./pipe.txt", "./missing.txt"):
        assert seen[path] is None, path
    if not options:
        assert seen["./..x.txt"] is None and outcome(fs, "./..x.txt") == "PermissionError_"
        assert seen["./outdir/secret.txt"] is None and outcome(fs, "./outdir/secret.txt") == "PermissionError_"
        assert seen["/a.txt"] is None  # "" joins to an absolute path, which read_file judges


def test_a_root_of_slash_is_left_to_read_file(tree):
    root, _ = tree
    fs = LocalFilesystem("/")
    fs.init()
    assert fs.contained_reader().read(str(root), "a.txt") is None
