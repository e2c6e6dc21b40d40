"""sandbox/native-sandbox/: isolation detection, the bwrap command, and the wrapper that picks one."""
from .detect import detect_isolation, is_bwrap_available, is_isolation_available, is_seatbelt_available
from .wrapper import wrap_command

__all__ = ["detect_isolation", "is_bwrap_available", "is_isolation_available", "is_seatbelt_available",
           "wrap_command"]
