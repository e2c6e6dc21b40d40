"""The upstream's error classes: the message text and the POSIX-style code are both part of the spec."""
from __future__ import annotations

import errno
import os


class WorkspaceError(Exception):
    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code


class WorkspaceNotAvailableError(WorkspaceError):
    def __init__(self):
        super().__init__("Workspace not available. Ensure the agent has a workspace configured.", "NO_WORKSPACE")


class FilesystemNotAvailableError(WorkspaceError):
    def __init__(self):
        super().__init__("Workspace does not have a filesystem configured", "NO_FILESYSTEM")


class SandboxNotAvailableError(WorkspaceError):
    def __init__(self, message: str | None = None):
        super().__init__(message or "Workspace does not have a sandbox configured", "NO_SANDBOX")


class WorkspaceReadOnlyError(WorkspaceError):
    def __init__(self, operation: str):
        super().__init__(f"Workspace is in read-only mode. Cannot perform: {operation}", "READ_ONLY")


class FilesystemError(Exception):
    def __init__(self, message: str, code: str, path: str):
        super().__init__(message)
        self.message = message
        self.code = code
        self.path = path


class FileNotFoundError_(FilesystemError):
    js_name = "FileNotFoundError"

    def __init__(self, path: str):
        super().__init__(f"File not found: {path}", "ENOENT", path)


class DirectoryNotFoundError(FilesystemError):
    def __init__(self, path: str):
        super().__init__(f"Directory not found: {path}", "ENOENT", path)


class FileExistsError_(FilesystemError):
    js_name = "FileExistsError"

    def __init__(self, path: str):
        super().__init__(f"File already exists: {path}", "EEXIST", path)


class IsDirectoryError(FilesystemError):
    def __init__(self, path: str):
        super().__init__(f"Path is a directory: {path}", "EISDIR", path)


class NotDirectoryError(FilesystemError):
    def __init__(self, path: str):
        super().__init__(f"Path is not a directory: {path}", "ENOTDIR", path)


class DirectoryNotEmptyError(FilesystemError):
    def __init__(self, path: str):
        super().__init__(f"Directory not empty: {path}", "ENOTEMPTY", path)


class PermissionError_(FilesystemError):
    js_name = "PermissionError"

    def __init__(self, path: str, operation: str):
        super().__init__(f"Permission denied: {operation} on {path}", "EACCES", path)


class StaleFileError(FilesystemError):
    def __init__(self, path: str, message: str):
        super().__init__(message, "ESTALE", path)


class FileReadRequiredError(FilesystemError):
    def __init__(self, path: str, reason: str):
        super().__init__(reason, "EREAD_REQUIRED", path)


class JsError(Exception):
    """A plain `new Error(message)` upstream (name "Error", no code)."""

    js_name = "Error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class JsTypeError(JsError):
    """A TypeError the upstream's JavaScript raises on a wrong value (e.g. a number as a path)."""

    js_name = "TypeError"


class NodeSystemError(Exception):
    """An error Node's fs layer would throw as is: `ENOTDIR: not a directory, stat '/x/a.txt/'`."""

    js_name = "Error"

    def __init__(self, code: str, syscall: str, path: str, dest: str | None = None):
        desc = _NODE_DESCRIPTIONS.get(code) or os.strerror(getattr(errno, code, 0)).lower()
        message = f"{code}: {desc}, {syscall} '{path}'" + (f" -> '{dest}'" if dest else "")
        super().__init__(message)
        self.message = message
        self.code = code
        self.syscall = syscall
        self.path = path

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


def js_name(exc: BaseException) -> str:
    """The class name the upstream's error would carry."""
    name = getattr(type(exc), "js_name", None)
    if name:
        return name
    if isinstance(exc, (WorkspaceError, FilesystemError)):
        return type(exc).__name__
    return "Error"  # anything else surfaces upstream as a plain Error


class SearchNotAvailableError(WorkspaceError):
    def __init__(self):
        super().__init__("Workspace does not have search configured (enable bm25 or provide vectorStore + embedder)",
                         "NO_SEARCH")


class WorkspaceNotReadyError(WorkspaceError):
    def __init__(self, status: str):
        super().__init__(f"Workspace is not ready (status: {status})", "NOT_READY")
