"""JavaScript's and Node's own error shapes: Error, TypeError, and the SystemError of Node's fs layer.

The workspace's own error classes are in errors.py; these are what the runtime throws beneath them.
"""
from __future__ import annotations

import errno
import os

from .strings import to_well_formed


class JsError(Exception):
    """A plain `new Error(message)` upstream (name "Error", no code)."""

    js_name = "Error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class JsTypeError(JsError):
    """A TypeError the upstream's JavaScript raises on a wrong value (e.g. a number as a path)."""

    js_name = "TypeError"


class JsRangeError(JsError):
    """A RangeError (a number out of its allowed range, e.g. maxRetainedBytes -1)."""

    js_name = "RangeError"


class NodeSystemError(Exception):
    """An error Node's fs layer would throw as is: `ENOTDIR: not a directory, stat '/x/a.txt/'`."""

    js_name = "Error"

    def __init__(self, code: str, syscall: str, path: str, dest: str | None = None):
        # The paths as the system was given them: Node's message and fields show them so (a lone
        # surrogate as U+FFFD), unlike its argument errors, which show the JavaScript string.
        path, dest = to_well_formed(path), (to_well_formed(dest) if dest is not None else None)
        desc = _NODE_DESCRIPTIONS.get(code) or os.strerror(getattr(errno, code, 0)).lower()
        message = f"{code}: {desc}, {syscall} '{path}'" + (f" -> '{dest}'" if dest else "")
        super().__init__(message)
        self.message = message
        self.code = code
        self.errno = -getattr(errno, code, 0) if hasattr(errno, code) else None  # Node's errno is negative
        self.syscall = syscall
        self.path = path
        self.dest = dest

    @classmethod
    def from_oserror(cls, exc: OSError, syscall: str, path: str) -> "NodeSystemError":
        return cls(errno.errorcode.get(exc.errno, "EIO"), syscall, path)


# libuv's descriptions, which Node prints (they differ from strerror for a few codes).
_NODE_DESCRIPTIONS = {
    "ENOENT": "no such file or directory",
    "ENOTDIR": "not a directory",
    "EISDIR": "illegal operation on a directory",
    "EACCES": "permission denied",
    "EEXIST": "file already exists",
    "ENOTEMPTY": "directory not empty",
    "ELOOP": "too many symbolic links encountered",
    "EPERM": "operation not permitted",
    "ENAMETOOLONG": "name too long",
    "EINVAL": "invalid argument",
    "EXDEV": "cross-device link not permitted",
}
