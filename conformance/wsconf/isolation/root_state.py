"""What the workspace's root holds: every entry under it with its kind, size, a hash of its content
and a link's target, observed after the workspace opens and after each step.

The judge compares it with the state the upstream left (spec/states/), so a call that answers
"written" but wrote nothing, or a delete that removed more than it was asked, is seen even where
the answer matches. An entry is one short string:

    d                      a folder
    f:<size>:<hash>        a file: its size and the first 16 hex digits of its sha256
    l:<target>             a symbolic link, by its target as written
    s                      anything else (a fifo, a socket): never opened

The case's own folders in a file or a link target (its root, outside and home paths) are written
as {{root}}, {{outside}}, {{home}} before hashing, so a file that records where it was written
reads the same in every run. In a pinned state `*` stands for a part that differed between the
upstream's runs, a leading `?` for an entry that was there in some runs only, and a key beginning
with `//` is a glob for a name made at random.

Bounded: at most MAX_ENTRIES entries and MAX_BYTES bytes hashed per observation; past them the
state holds TOO_MANY / the file's entry says its content was not read.
"""
from __future__ import annotations

import fnmatch
import hashlib
import os
import re
import stat
import time
from pathlib import Path

MAX_ENTRIES = 20_000
MAX_BYTES = 256 * 1024 * 1024
TOO_MANY = "..."   # the key standing for "more entries than MAX_ENTRIES"
PATTERN = "//"     # a pinned key so begun is a glob (a random name), never a path
UNREAD = "unread"  # a file's hash when the byte budget was spent


def observe(root: Path, values: dict[str, str], known: dict | None = None) -> dict[str, str]:
    """Relative path -> entry, for everything under root (root itself left out). known: a file's entry
    from an earlier observation of this root, by (inode, size, mtime, ctime): a file whose ctime has
    not moved holds the same bytes (every write sets it, and nothing can set it back)."""
    names = _replacements(values)
    state: dict[str, str] = {}
    budget = [MAX_BYTES]
    known = {} if known is None else known
    top = str(root)
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()  # in place: the walk descends in this order
        for name in dirnames + sorted(filenames):
            path = os.path.join(dirpath, name)
            if len(state) >= MAX_ENTRIES:
                state[TOO_MANY] = f"more than {MAX_ENTRIES} entries"
                return state
            state[os.path.relpath(path, top)] = _entry(path, names, budget, known)
        # os.walk lists a symlink to a folder among dirnames but does not descend into it
    return state


def _replacements(values: dict[str, str]) -> list[tuple[bytes, bytes]]:
    pairs = [(values[k].encode(), ("{{" + k + "}}").encode()) for k in ("root", "outside", "home") if values.get(k)]
    return sorted(pairs, key=lambda p: -len(p[0]))  # root before a folder that contains it


def _entry(path: str, names, budget: list[int], known: dict) -> str:
    try:
        st = os.lstat(path)
    except OSError:
        return "gone"  # removed while the walk ran (a background process)
    key = (path, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if stat.S_ISREG(st.st_mode) and key in known:
        return known[key]
    if stat.S_ISLNK(st.st_mode):
        try:
            return "l:" + _named(os.fsencode(os.readlink(path)), names).decode("utf-8", "surrogateescape")
        except OSError:
            return "l:?"
    if stat.S_ISDIR(st.st_mode):
        return "d"
    if not stat.S_ISREG(st.st_mode):
        return "s"
    if st.st_size > budget[0]:
        return f"f:{st.st_size}:{UNREAD}"
    try:
        with open(path, "rb") as fh:
            data = fh.read(st.st_size + 1)
    except OSError as exc:
        return f"f:{st.st_size}:unreadable {exc.errno}"
    budget[0] -= len(data)
    data = _named(data, names)
    entry = f"f:{len(data)}:{hashlib.sha256(data).hexdigest()[:16]}"
    if time.time_ns() - st.st_ctime_ns > 100_000_000:  # a write in the same (coarse) clock tick could follow unseen
        known[key] = entry
    return entry


def _named(data: bytes, names) -> bytes:
    for raw, name in names:
        if raw in data:
            data = data.replace(raw, name)
    return data


# -- a pinned state: the state after opening, then each step's change --------------------------------

def delta(before: dict[str, str], after: dict[str, str]) -> dict:
    """after as a change to before: {"+": {path: entry}, "-": [path]} (empty parts left out)."""
    added = {p: e for p, e in after.items() if before.get(p) != e}
    removed = sorted(p for p in before if p not in after)
    return {k: v for k, v in (("+", added), ("-", removed)) if v}


def apply(state: dict[str, str], change: dict) -> dict[str, str]:
    out = {p: e for p, e in state.items() if p not in set(change.get("-", ()))}
    out.update(change.get("+", {}))
    return out


def entry_matches(expected: str | None, actual: str | None) -> bool:
    """An actual entry against a pinned one (`*` parts, a leading `?`; `*` alone: anything there)."""
    if expected == "*":
        return actual is not None
    if expected is not None and expected.startswith("?"):
        return actual is None or entry_matches(expected[1:], actual)
    if expected is None or actual is None:
        return expected is actual
    if expected == actual:
        return True
    if expected[:2] != actual[:2]:
        return False
    if expected[:2] == "l:":
        return expected == "l:*"
    want, got = expected.split(":", 2), actual.split(":", 2)  # f:<size>:<hash>
    return len(want) == len(got) == 3 and all(w in ("*", g) for w, g in zip(want, got))


def pinned_glob(key: str) -> str:
    """The fnmatch glob of a pinned random name (`//d/mount-*#1`): its `*` stands for the random part,
    any other `?`, `[` or `]` is the name's own (`//d/[x]-*#1` is `d/[x]-` and something)."""
    return "*".join(_escaped(part) for part in key[len(PATTERN):].rsplit("#", 1)[0].split("*"))


def _escaped(text: str) -> str:
    """A name for fnmatch, as itself."""
    return re.sub(r"([?\[])", r"[\1]", text)


def differences(expected: dict[str, str], actual: dict[str, str], dirs: bool = True) -> dict[str, tuple]:
    """path -> (expected entry or None, actual entry or None) where they do not match. dirs=False:
    folders are not compared (an implementation without empty_dirs has a folder only while
    something is in it, which the files under it already say). A pinned path beginning with `//`
    (`//.mastra-mounts/mount-*#1`, a name made at random) stands for one actual path its glob matches
    (an observed path never begins with a slash)."""
    out = {}
    patterns = sorted(p for p in expected if p.startswith(PATTERN))
    exact = [p for p in expected if not p.startswith(PATTERN)]
    unmatched = {p: e for p, e in actual.items() if p not in expected}
    for path in sorted(set(exact) | set(p for p in actual if p in expected)):
        _compare(out, path, expected.get(path), actual.get(path), dirs)
    for pattern in patterns:
        glob = pinned_glob(pattern)
        fits = [p for p in sorted(unmatched) if p.count("/") == glob.count("/") and fnmatch.fnmatchcase(p, glob)]
        if not fits:
            _compare(out, pattern, expected[pattern], None, dirs)
            continue
        chosen = next((p for p in fits if entry_matches(expected[pattern], unmatched[p])), fits[0])
        _compare(out, chosen, expected[pattern], unmatched.pop(chosen), dirs)
    for path, entry in unmatched.items():
        _compare(out, path, None, entry, dirs)
    return dict(sorted(out.items()))


def _compare(out: dict, path: str, want: str | None, got: str | None, dirs: bool) -> None:
    if not dirs and {kind(want), kind(got)} <= {"folder", "nothing"}:
        return
    if not entry_matches(want, got):
        out[path] = (want, got)


def kind(entry: str | None) -> str:
    return {"d": "folder", "f": "file", "l": "link", "s": "special"}.get((entry or "?").lstrip("?")[:1], "nothing")
