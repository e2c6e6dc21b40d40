"""The folder a case runs in: root/, outside/, and the canaries that catch escapes.

Case folders live in one run folder per harness process, which also holds the HOME and TMPDIR
given to a subprocess implementation. Everything in the run folder but the case's root is
fingerprinted around the case, and every file there that an implementation might read holds a
unique token (leaks.py)."""
from __future__ import annotations

import atexit
import base64
import hashlib
import os
import queue
import stat
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..spec.placeholders import PREVIOUS_STEP_STARTED, RUN_STARTED, substitute
from ..spec.resources import data_path
from .confine import hand_over
from .mounts import detach_all, mounts_under
from .leaks import Tokens, new_token

CANARY_TEXT = b"wsconf canary: nothing may change this file\n"
SECRET = ".wsconf-secret"        # the token file in outside/, HOME and TMPDIR
FIXTURES = data_path("spec") / "fixtures"  # {{fixtures}}: programs a case runs (the LSP server)
HASHED = 64 * 1024 * 1024        # a bigger file outside is fingerprinted by size and mtime only
_run: dict = {}


def run_dir() -> Path:
    """This process's run folder: the case folders, and home/ and tmp/ for the implementation's
    HOME and TMPDIR. Removed at exit."""
    if _run.get("pid") != os.getpid():      # a forked child makes its own
        base = Path(os.path.realpath(tempfile.mkdtemp(prefix="wsconf-run-")))
        tokens = Tokens()
        for name, label in (("home", "$HOME"), ("tmp", "$TMPDIR")):
            (base / name).mkdir()
            tokens.add(_secret(base / name / SECRET), f"{label}/{SECRET}", base / name / SECRET)
        _run.update(pid=os.getpid(), base=base, tokens=tokens, owner=None)
        atexit.register(lambda pid=os.getpid(): pid == os.getpid() and remove_tree(base))
    return _run["base"]


def set_owner(uid: int | None) -> None:
    """A confined implementation runs as `uid` (confine.py): its HOME, TMPDIR and every case's
    folder, root/ and outside/ are handed to it (the canaries stay the harness's); the run folder
    stays the harness's, which it may only pass through."""
    base = run_dir()
    _run["owner"] = uid
    if uid is not None:
        os.chmod(base, 0o711)
        hand_over(uid, base / "home", base / "tmp")


def owner() -> int | None:
    """The uid the case folders are handed to (None: the harness's own)."""
    run_dir()
    return _run["owner"]


def _secret(path: Path, head: bytes = b"") -> str:
    token = new_token()
    path.write_bytes(head + token.encode() + b"\n")
    return token


def content_bytes(spec) -> bytes:
    """A content entry of the spec (string, {text}, {hex}, {base64}, {repeat, times, prefix?, suffix?}) as bytes."""
    if isinstance(spec, str):
        return spec.encode("utf-8", "surrogatepass")
    if "text" in spec:
        return spec["text"].encode("utf-8", "surrogatepass")
    if "hex" in spec:
        return bytes.fromhex("".join(spec["hex"].split()))
    if "base64" in spec:
        return base64.b64decode(spec["base64"])
    text = spec.get("prefix", "") + spec["repeat"] * spec["times"] + spec.get("suffix", "")
    return text.encode("utf-8", "surrogatepass")


@dataclass
class CaseTree:
    base: Path
    root: Path
    outside: Path
    home: Path
    captured: dict = field(default_factory=dict)   # placeholder values seen in earlier results
    tokens: Tokens = field(default_factory=Tokens)  # the token in each file outside the root
    reachable: object = lambda path: False          # which of those the workspace may read (leaks.reach)
    started_ms: int = field(default_factory=lambda: time.time_ns() // 1_000_000)  # for {{base36_ms}}, {{epoch_ms}}
    runtime_dir: str | None = None                  # {{runtime_dir}}: the adapter's (capability runtime_dir)
    previous_step_started_ms: int | None = None     # for {{iso_since_previous_step}}: set by the runner

    @property
    def values(self) -> dict[str, str]:
        return {"root": str(self.root), "outside": str(self.outside), "home": str(self.home),
                "fixtures": str(FIXTURES), RUN_STARTED: str(self.started_ms),
                **({"runtime_dir": self.runtime_dir} if self.runtime_dir is not None else {}),
                **({PREVIOUS_STEP_STARTED: str(self.previous_step_started_ms)}
                   if self.previous_step_started_ms is not None else {})}

    def lay_out(self, setup: dict) -> None:
        setup = substitute(setup or {}, self.values)
        _lay_tree(self.root, setup)
        _lay_tree(self.outside, setup.get("outside") or {})
        # Where the workspace may read outside/ anyway, a token there would only change what
        # listing it shows.
        if not self.reachable(self.outside / SECRET):
            self.tokens.add(_secret(self.outside / SECRET), f"outside/{SECRET}", self.outside / SECRET)
        self.hand_over(self.root, self.outside)

    def hand_over(self, *paths) -> None:
        """What the harness made in the case's folders belongs to the implementation's user."""
        hand_over(owner(), *paths)

    def fingerprint_outside(self) -> dict[str, str]:
        """Everything a case must not touch: the whole run folder (this case's folder, the
        implementation's HOME and TMPDIR) but the root."""
        top = run_dir()
        prints = {str(top): _print(str(top))}
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if os.path.join(dirpath, d) != str(self.root)]
            for name in dirnames + filenames:
                path = os.path.join(dirpath, name)
                prints[path] = _print(path)
        return prints

    def remove(self, case_id: str | None = None) -> None:
        if case_id is not None:
            _ENDED[str(self.base)] = case_id
        _DELETER.remove(self.base)


_ENDED: dict[str, str] = {}  # the folder of a case that has ended -> its id


def ended_cases(paths: list[str]) -> list[str]:
    """The ended cases whose folders these paths are in: an operation of that case landing after
    it ended (its folder was renamed away then) makes the folder again."""
    found = []
    for path in paths:
        for base, case_id in _ENDED.items():
            if (path == base or path.startswith(base + "/")) and case_id not in found:
                found.append(case_id)
    return found


class _Deleter:
    """Removes case folders on a thread of its own. On a disk mounted with `discard` deleting a
    folder waits 5-20 ms on the device; done here, that wait overlaps the next cases instead of
    adding to each. The folder is first renamed out of the run folder (instant), so the next
    case's fingerprint of the run folder never sees a deletion in progress. What is left when
    the process exits is removed first."""

    def __init__(self):
        self.queue: queue.Queue = queue.Queue()
        self.lock = threading.Lock()
        self.thread = None
        self.trash: Path | None = None

    def remove(self, base: Path) -> None:
        trash = Path(f"{run_dir()}-trash")
        if self.trash != trash:  # made once per run folder (a forked child has its own)
            trash.mkdir(exist_ok=True)
            self.trash = trash
        try:
            # the case folder's name is unique among the run folder's, so in the trash too; if it
            # were taken there, rename fails and the folder is removed here instead
            moved = trash / base.name
            os.rename(base, moved)
        except OSError:
            remove_tree(base)  # not renameable (another filesystem, the name taken): removed here and now
            return
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="wsconf-tree-deleter", daemon=True)
                self.thread.start()
                atexit.register(lambda: (self.queue.join(), remove_tree(trash)))
        self.queue.put(moved)

    def _run(self) -> None:
        while True:
            base = self.queue.get()
            try:
                remove_tree(base)
            finally:
                self.queue.task_done()


_DELETER = _Deleter()


def remove_tree(base: Path) -> None:
    """Remove a folder the implementation had its hands on: first every mount inside it is detached
    (mounts.py), and if one stays, nothing is removed; then the tree is removed without following
    a link or entering another filesystem, each folder made readable first (one made 000)."""
    _, stuck = detach_all(base)
    if stuck or mounts_under(base):
        print(f"wsconf: left {base} in place, a mount is still inside it: {'; '.join(stuck)}", file=sys.stderr)
        return
    try:
        top = os.lstat(base)
    except OSError:
        return
    if not stat.S_ISDIR(top.st_mode):
        _quietly(os.unlink, base)
        return
    try:
        fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return
    stack = [(fd, None, None)]   # (open folder, its name, the folder holding it)
    entries = {fd: _entries(fd)}
    while stack:
        fd, name, parent = stack[-1]
        entry = next(entries[fd], None)
        if entry is None:
            stack.pop()
            del entries[fd]
            os.close(fd)
            if parent is not None:
                _quietly(os.rmdir, name, dir_fd=parent)
            continue
        if not entry.is_dir(follow_symlinks=False):
            _quietly(os.unlink, entry.name, dir_fd=fd)
            continue
        try:
            child = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
        except OSError:
            continue
        if os.fstat(child).st_dev != top.st_dev:   # another filesystem: never entered
            os.close(child)
            continue
        stack.append((child, entry.name, fd))
        entries[child] = _entries(child)
    _quietly(os.rmdir, base)


def _entries(fd: int):
    try:
        os.fchmod(fd, 0o700)
        return iter(list(os.scandir(fd)))
    except OSError:
        return iter(())


def _quietly(fn, *args, **kwargs) -> None:
    try:
        fn(*args, **kwargs)
    except OSError:
        pass


def _print(path: str, shallow: bool = False) -> str:
    """What a path is: kind, mode, and for a file its mtime, size and (unless shallow or huge) sha256."""
    try:
        st = os.lstat(path)
    except OSError:
        return "absent"
    mode = oct(st.st_mode & 0o7777)
    if stat.S_ISLNK(st.st_mode):
        return "link:" + os.readlink(path)
    if stat.S_ISDIR(st.st_mode):
        return f"dir:{mode}"
    if not stat.S_ISREG(st.st_mode):   # a fifo is never opened: reading it could block forever
        return f"special:{stat.S_IFMT(st.st_mode)}:{mode}"
    head = f"file:{mode}:{st.st_mtime_ns}:{st.st_size}:"
    if st.st_size > HASHED or shallow:
        return head
    # Every write, truncation or utime sets the ctime to the (coarse) clock, and nothing else sets
    # it: a file whose inode, size, mtime and a ctime older than a second are as when it was
    # hashed holds the same bytes (HOME's and TMPDIR's tokens, hashed twice for every case).
    key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    known = _digests.get(key)
    if known is not None:
        return head + known
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
    except OSError as exc:
        return head + f"unreadable:{exc.errno}"
    if time.time_ns() - st.st_ctime_ns > 1_000_000_000:  # a write in the same clock tick: no
        if len(_digests) > 4096:
            _digests.clear()
        _digests[key] = digest.hexdigest()
    return head + digest.hexdigest()


_digests: dict = {}   # (path, device, inode, size, mtime, ctime) -> sha256 of a file outside the root
fingerprint_path = _print


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
    base = Path(os.path.realpath(tempfile.mkdtemp(prefix=prefix, dir=run_dir())))
    root, outside = base / "root", base / "outside"
    for d in (root, outside, base / "sibling"):
        d.mkdir()
    tree = CaseTree(base, root, outside, outside)
    for path in (base / "CANARY", base / "sibling" / "CANARY"):
        tree.tokens.add(_secret(path, CANARY_TEXT), str(path.relative_to(base)), path)
    if owner() is not None:  # the case folder is the implementation's (as the root's parent is to root)
        os.chmod(base, 0o755)
        os.chown(base, owner(), owner())
    for token, (label, path) in _run["tokens"].files.items():
        tree.tokens.add(token, label, path)
    return tree
