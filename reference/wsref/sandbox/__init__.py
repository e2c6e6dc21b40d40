"""sandbox/: LocalSandbox, its process manager, and native isolation detection."""
from .errors import IsolationUnavailableError, SandboxError, SandboxFeatureNotSupportedError, SandboxNotReadyError
from .local_process_manager import LocalProcessManager
from .local_sandbox import LocalSandbox
from .native_sandbox import detect_isolation, is_isolation_available
from .process_manager import ProcessHandle

__all__ = ["LocalSandbox", "LocalProcessManager", "ProcessHandle", "IsolationUnavailableError", "SandboxError",
           "SandboxFeatureNotSupportedError", "SandboxNotReadyError", "detect_isolation", "is_isolation_available"]
