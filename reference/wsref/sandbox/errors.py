"""The sandbox's error classes (upstream `sandbox/errors.ts`, `workspace/errors.ts`)."""
from __future__ import annotations


class SandboxError(Exception):
    js_name = "SandboxError"
    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code


class SandboxNotReadyError(SandboxError):
    js_name = "SandboxNotReadyError"
    def __init__(self, id_or_status: str):
        super().__init__(f"Sandbox is not ready: {id_or_status}", "NOT_READY")


class IsolationUnavailableError(SandboxError):
    js_name = "IsolationUnavailableError"
    def __init__(self, backend: str, reason: str):
        super().__init__(f"Isolation backend '{backend}' is not available: {reason}", "ISOLATION_UNAVAILABLE")
        self.backend = backend
        self.reason = reason


class SandboxFeatureNotSupportedError(SandboxError):
    """Upstream this is a WorkspaceError (workspace/errors.ts), with the same message and code."""

    js_name = "SandboxFeatureNotSupportedError"
    def __init__(self, feature: str):
        super().__init__(f"Sandbox does not support {feature}", "FEATURE_NOT_SUPPORTED")


class SpawnError(Exception):
    """What execa reports when the child could not be spawned; upstream rethrows it as a plain Error."""

    js_name = "Error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
