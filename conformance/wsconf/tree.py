"""The folder a case runs in: root/, outside/, and the canaries that catch escapes."""
from __future__ import annotations

import atexit
import base64
import hashlib
import os
import queue
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from .placeholders import substitute

CANARY_TEXT = b"wsconf canary: nothing may change this file\n"


def content_bytes(spec) -> bytes:
    """A content entry of the spec (string, {text}, {hex}, {base64}, {repeat, times}) as bytes."""
    if isinstance(spec, str):
        return spec.encode("utf-8", "surrogatepass")
    if "text" in spec:
        return spec["text"].encode("utf-8", "surrogatepass")
    if "hex" in spec:
        return bytes.fromhex("".join(spec["hex"].split()))
    if "base64" in spec:
        return base64.b64decode(spec["base64"])
    return (spec["repeat"] * spec["times"]).encode("utf-8", "surrogatepass")


@dataclass
class CaseTree:
    base: Path
    root: Path
    outside: Path
    home: Path
    captured: dict = field(default_factory=dict)   # placeholder values seen in earlier results

    @property
    def values(self) -> dict[str, str]:
        return {"root": str(self.root), "outside": str(self.outside), "home": str(self.home)}

    def lay_out(self, setup: dict) -> None:
        setup = substitute(setup or {}, self.values)
        _lay_tree(self.root, setup)
        _lay_tree(self.outside, setup.get("outside") or {})

    def fingerprint_outside(self) -> dict[str, str]:
        """Everything outside root that a case must not touch: canaries and outside/."""
        prints = {}
        for top in (self.base / "CANARY", self.base / "sibling", self.outside):
            for path in ([top] if top.is_file() else sorted(top.rglob("*")) + [top]):
                prints[str(path)] = _print(path)
        return prints

    def remove(self) -> None:
        _DELETER.remove(self.base)


def _remove_now(base: Path) -> None:
    for dirpath, dirnames, filenames in os.walk(base):
        for name in dirnames:
            p = os.path.join(dirpath, name)
            if not os.path.islink(p):
                os.chmod(p, 0o755)
    shutil.rmtree(base, ignore_errors=True)


class _Deleter:
    """Removes case folders on a thread of its own. On a disk mounted with `discard` deleting a
    folder waits 5-20 ms on the device; done here, that wait overlaps the next cases instead of
    adding to each. What is left when the process exits is removed first."""

    def __init__(self):
        self.queue: queue.Queue = queue.Queue()
        self.lock = threading.Lock()
        self.thread = None

    def remove(self, base: Path) -> None:
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="wsconf-tree-deleter", daemon=True)
                self.thread.start()
                atexit.register(self.queue.join)
        self.queue.put(base)

    def _run(self) -> None:
        while True:
            base = self.queue.get()
            try:
                _remove_now(base)
            finally:
                self.queue.task_done()


_DELETER = _Deleter()


def _print(path: Path) -> str:
    if path.is_symlink():
        return "link:" + os.readlink(path)
    if not path.exists():
        return "absent"
    if path.is_dir():
        return f"dir:{oct(path.stat().st_mode & 0o7777)}"
    st = path.stat()
    return f"file:{oct(st.st_mode & 0o7777)}:{st.st_mtime_ns}:" + hashlib.sha256(path.read_bytes()).hexdigest()


def _lay_tree(top: Path, spec: dict) -> None:
    for d in spec.get("dirs", []):
        (top / d).mkdir(parents=True, exist_ok=True)
    for rel, content in (spec.get("files") or {}).items():
        path = top / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content_bytes(content))
        if isinstance(content, dict) and "mode" in content:
            os.chmod(path, int(content["mode"], 8))
    for rel, target in (spec.get("symlinks") or {}).items():
        path = top / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, path)
    for rel, mode in (spec.get("modes") or {}).items():
        os.chmod(top / rel, int(mode, 8), follow_symlinks=False)


def make_tree(prefix: str = "wsconf-") -> CaseTree:
    # realpath: on some systems the temp dir itself sits behind a symlink, and {{root}} must be
    # the path the implementation prints.
    base = Path(os.path.realpath(tempfile.mkdtemp(prefix=prefix)))
    root, outside = base / "root", base / "outside"
    for d in (root, outside, base / "sibling"):
        d.mkdir()
    (base / "CANARY").write_bytes(CANARY_TEXT)
    (base / "sibling" / "CANARY").write_bytes(CANARY_TEXT)
    return CaseTree(base, root, outside, outside)
