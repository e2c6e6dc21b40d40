"""Node's `path.posix`, ported: normalize, resolve, relative, dirname, basename, extname, join.

Checked against node's own path.posix on generated paths (tests/test_nodepath.py).

Python's os.path differs in ways that show in outputs (normpath keeps a leading `//`, drops a
trailing `/`), and the upstream's messages print these paths, so we follow Node exactly.
"""
from __future__ import annotations

import os


def _normalize_string(path: str, allow_above_root: bool) -> str:
    res = ""
    last_segment_length = 0
    last_slash = -1
    dots = 0
    code = ""
    n = len(path)
    for i in range(n + 1):
        if i < n:
            code = path[i]
        elif code == "/":
            break
        else:
            code = "/"
        if code == "/":
            if last_slash == i - 1 or dots == 1:
                pass
            elif dots == 2:
                if len(res) < 2 or last_segment_length != 2 or res[-1] != "." or res[-2] != ".":
                    if len(res) > 2:
                        idx = res.rfind("/")
                        if idx == -1:
                            res, last_segment_length = "", 0
                        else:
                            res = res[:idx]
                            last_segment_length = len(res) - 1 - res.rfind("/")
                        last_slash, dots = i, 0
                        continue
                    elif len(res) != 0:
                        res, last_segment_length = "", 0
                        last_slash, dots = i, 0
                        continue
                if allow_above_root:
                    res += "/.." if res else ".."
                    last_segment_length = 2
            else:
                segment = path[last_slash + 1:i]
                res = f"{res}/{segment}" if res else segment
                last_segment_length = i - last_slash - 1
            last_slash, dots = i, 0
        elif code == "." and dots != -1:
            dots += 1
        else:
            dots = -1
    return res


def is_absolute(path: str) -> bool:
    return path.startswith("/")


def normalize(path: str) -> str:
    if not path:
        return "."
    absolute = path[0] == "/"
    trailing = path[-1] == "/"
    path = _normalize_string(path, not absolute)
    if not path:
        return "/" if absolute else ("./" if trailing else ".")
    if trailing:
        path += "/"
    return "/" + path if absolute else path


def resolve(*args: str) -> str:
    resolved = ""
    absolute = False
    for p in list(reversed(args)) + [None]:
        if absolute:
            break
        p = os.getcwd() if p is None else p
        if not p:
            continue
        resolved = f"{p}/{resolved}"
        absolute = p[0] == "/"
    resolved = _normalize_string(resolved, not absolute)
    if absolute:
        return "/" + resolved
    return resolved or "."


def relative(from_: str, to: str) -> str:
    if from_ == to:
        return ""
    from_, to = resolve(from_), resolve(to)
    if from_ == to:
        return ""
    from_start, from_end = 1, len(from_)
    from_len = from_end - from_start
    to_start = 1
    to_len = len(to) - to_start
    length = min(from_len, to_len)
    last_common_sep = -1
    i = 0
    while i < length:
        c = from_[from_start + i]
        if c != to[to_start + i]:
            break
        if c == "/":
            last_common_sep = i
        i += 1
    if i == length:
        if to_len > length:
            if to[to_start + i] == "/":
                return to[to_start + i + 1:]
            if i == 0:
                return to[to_start + i:]
        elif from_len > length:
            if from_[from_start + i] == "/":
                last_common_sep = i
            elif i == 0:
                last_common_sep = 0
    out = ""
    for j in range(from_start + last_common_sep + 1, from_end + 1):
        if j == from_end or from_[j] == "/":
            out += ".." if not out else "/.."
    return out + to[to_start + last_common_sep:]


def join(*parts: str) -> str:
    joined = "/".join(p for p in parts if p)
    return normalize(joined) if joined else "."


def dirname(path: str) -> str:
    if not path:
        return "."
    has_root = path[0] == "/"
    end = -1
    matched_slash = True
    for i in range(len(path) - 1, 0, -1):
        if path[i] == "/":
            if not matched_slash:
                end = i
                break
        else:
            matched_slash = False
    if end == -1:
        return "/" if has_root else "."
    if has_root and end == 1:
        return "//"
    return path[:end]


def basename(path: str) -> str:
    stripped = path.rstrip("/")
    if not stripped:
        return ""
    return stripped.rsplit("/", 1)[-1]


def extname(path: str) -> str:
    base = basename(path)
    if base == "..":
        return ""
    idx = base.rfind(".")
    if idx <= 0:
        return ""
    return base[idx:]
