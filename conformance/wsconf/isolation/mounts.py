"""Mounts in a case's folders. An unconfined implementation running as root can bind-mount any
folder of the machine into its root; removing the case folder would then empty that folder. So
before anything is removed, the mounts under it are found (/proc/self/mountinfo), reported, and
detached; removal never crosses one that could not be detached. A confined implementation's
mounts stay in its own mount namespace, where the harness's cleanup never meets them; they are
looked for there too (/proc/<pid>/mountinfo) and reported the same way."""
from __future__ import annotations

import ctypes
import os

MNT_DETACH = 2


def _unescape(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash in a path as octal escapes."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and i + 3 < len(field) and field[i + 1:i + 4].isdigit():
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def mounts_under(folder, pid: int | str = "self") -> list[tuple[str, str]]:
    """(mount point, what is mounted there) for every mount at or below folder, deepest first, as
    the mount namespace of `pid` (default: this process) has them."""
    top = os.path.realpath(folder).rstrip("/")
    try:
        with open(f"/proc/{pid}/mountinfo", encoding="utf-8", errors="surrogateescape") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        fields = line.split(" ")
        if len(fields) < 5:
            continue
        point = _unescape(fields[4])
        if point == top or point.startswith(top + "/"):
            dash = fields.index("-") if "-" in fields else len(fields) - 1
            source = _unescape(fields[3])  # the folder of its filesystem that is mounted there
            device = fields[dash + 2] if dash + 2 < len(fields) else "?"
            found.append((point, f"{device}:{source}"))
    return sorted(found, key=lambda m: -m[0].count("/"))


def detach(point: str) -> str | None:
    """Lazily unmount one mount point; why it could not be, or None."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.umount2(os.fsencode(point), MNT_DETACH) == 0:
        return None
    return os.strerror(ctypes.get_errno())


def detach_all(folder) -> tuple[list[tuple[str, str]], list[str]]:
    """Detach every mount below folder: (the mounts found, a sentence for each left in place)."""
    found = mounts_under(folder)
    stuck = []
    for point, _ in found:
        why = detach(point)
        if why is not None:
            stuck.append(f"could not detach {point}: {why}")
    return found, stuck
