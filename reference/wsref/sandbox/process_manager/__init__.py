"""sandbox/process-manager/: the handle of one spawned process."""
from .process_handle import DEFAULT_MAX_RETAINED_BYTES, ProcessHandle, RetainedOutput

__all__ = ["DEFAULT_MAX_RETAINED_BYTES", "ProcessHandle", "RetainedOutput"]
