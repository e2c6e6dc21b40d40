"""The local sandbox: LocalSandbox, its process manager, and native isolation detection."""
from .errors import IsolationUnavailableError, SandboxError, SandboxFeatureNotSupportedError, SandboxNotReadyError
from .isolation import detect_isolation, is_isolation_available
from .local_sandbox import LocalSandbox
from .process import LocalProcessManager, ProcessHandle

__all__ = ["LocalSandbox", "LocalProcessManager", "ProcessHandle", "IsolationUnavailableError", "SandboxError",
           "SandboxFeatureNotSupportedError", "SandboxNotReadyError", "detect_isolation", "is_isolation_available"]
