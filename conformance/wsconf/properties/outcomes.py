"""One implementation's outcome of a generated example, made comparable with another's: every
call's Result and then the tree the calls left behind, with the parts that differ by nature (the
case's folders, times, pids) named instead of spelled.

The tree is part of the outcome because Node's conversions show there and not in the answer: a
path with a lone surrogate is answered with the surrogate ("Wrote 1 bytes to \\ud800.txt") while the
file on disk is named with U+FFFD.
"""
from __future__ import annotations

import hashlib
import json
import os
import re

STARTED = re.compile(r"Started background process \(PID: (\d+)\)")
CUT = "... (truncated)"  # what ends a value cut for a message (wsref/validation.py truncate_for_logging)
PID_WIDTH = 7            # digits of the largest pid (pid_max 4194304)
ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def lay_out(root, tree: dict[str, bytes], dirs: list[str]) -> None:
    for rel, data in tree.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    for rel in dirs:
        (root / rel).mkdir(parents=True, exist_ok=True)


def fill(value, names: dict[str, str]):
    """The args with {root}, {outside} and {pid} put in (in strings, list items and object values)."""
    if isinstance(value, str):
        for key, real in names.items():
            value = value.replace("{" + key + "}", real)
        return value
    if isinstance(value, list):
        return [fill(v, names) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, names) for k, v in value.items()}
    return value


class Outcome:
    """The normalised answers of one session, call by call, and the tree at its end."""

    def __init__(self, root: str, outside: str, home: str):
        self.folders = [(root, "{{root}}"), (outside, "{{outside}}"), (home, "{{home}}")]
        # The case folder's random part (mkdtemp's 8 characters), also where a message cut it short
        # ("... (truncated)" in the middle of a path).
        case_folder = os.path.dirname(root)
        self.case_random = re.compile(re.escape(case_folder[:-8]) + "[A-Za-z0-9_]{0,8}")
        self.pids: list[str] = []
        self.answers: list[str] = []

    def names(self) -> dict[str, str]:
        return {"root": self.folders[0][0], "outside": self.folders[1][0], "pid": self.pids[-1] if self.pids else "0"}

    def record(self, result: dict) -> None:
        self.pids += STARTED.findall(json.dumps(result))
        self.answers.append(json.dumps(self._named(result), sort_keys=True, ensure_ascii=True))

    def _named(self, value):
        """The value with the folders, pids and times named, string by string."""
        if isinstance(value, str):
            for real, name in self.folders:
                value = value.replace(real, name)
            value = self.case_random.sub("{{case}}", value)
            for pid in self.pids:  # not inside a longer number; after a JSON escape such as \u0000 it may be
                value = _cut_as_if_widest(value, pid)
                value = re.sub(rf"(?:(?<![0-9])|(?<=\\u[0-9a-fA-F]{{4}})){pid}(?![0-9])", "{{pid}}", value)
            return ISO_TIME.sub("{{iso_time}}", value)
        if isinstance(value, list):
            return [self._named(v) for v in value]
        if isinstance(value, dict):
            return {k: self._named(v) for k, v in value.items()}
        return value


def _cut_as_if_widest(value: str, pid: str) -> str:
    """A value holding the pid and cut after a fixed number of characters shows fewer of what follows
    the pid the wider the pid is; a confined implementation's pids (its own pid namespace) are
    narrower than the harness's. Drop what a pid of PID_WIDTH digits would have pushed out of view."""
    at, cut = value.find(pid), value.find(CUT)
    if at < 0 or cut < at + len(pid):
        return value
    extra = PID_WIDTH - len(pid)
    return value[:max(at + len(pid), cut - extra)] + value[cut:]


def tree_state(root: str) -> list[str]:
    """Every entry under root, by its bytes: a file's sha256, a link's target, a folder."""
    out = []
    top = os.fsencode(root)
    # A relative path can spell the case folder's absolute path ("-{root}/a.txt" makes folders named
    # after it): that part differs between two runs by nature.
    case_folder = os.fsencode(os.path.dirname(root))
    for folder, dirs, files in os.walk(top):
        for name in sorted(dirs + files):
            full = os.path.join(folder, name)
            rel = os.path.relpath(full, top).replace(case_folder, b"{case}")
            if os.path.islink(full):
                out.append(f"{rel!r} -> {os.readlink(full)!r}")
            elif os.path.isdir(full):
                out.append(f"{rel!r}/")
            else:
                try:
                    with open(full, "rb") as fh:
                        out.append(f"{rel!r} {hashlib.sha256(fh.read()).hexdigest()[:16]}")
                except OSError as exc:
                    out.append(f"{rel!r} unreadable: {exc.strerror}")
    return sorted(out)
