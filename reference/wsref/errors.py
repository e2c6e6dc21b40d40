"""The workspace's error classes (upstream `errors.ts`): message text and POSIX-style code are both spec."""
from __future__ import annotations

from .js.errors import JsError, JsTypeError, NodeSystemError


class WorkspaceError(Exception):
    def __init__(self, message: str, code: str, workspaceId: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.workspaceId = workspaceId  # no 1.71.0 caller passes one


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


class UnsupportedGrepPatternError(FilesystemError):
    """Thrown by a native grep() for a pattern it cannot run: the grep tool falls back to the host-side search."""

    def __init__(self, pattern: str, reason: str | None = None):
        super().__init__(f"Unsupported grep pattern: {pattern}{f' ({reason})' if reason else ''}",
                         "EUNSUPPORTED_PATTERN", pattern)


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
        self.operation = operation


class StaleFileError(FilesystemError):
    def __init__(self, path: str, message: str, expectedMtime=None, actualMtime=None):
        super().__init__(message, "ESTALE", path)
        self.expectedMtime, self.actualMtime = expectedMtime, actualMtime  # Dates upstream


class FileReadRequiredError(FilesystemError):
    def __init__(self, path: str, reason: str):
        super().__init__(reason, "EREAD_REQUIRED", path)


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
