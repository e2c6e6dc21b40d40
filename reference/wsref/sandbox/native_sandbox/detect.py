"""Which native isolation backends this machine has (upstream `sandbox/native-sandbox/detect.ts`).

seatbelt is macOS only; this reference runs on Linux, where it is never available.
"""
from __future__ import annotations

import shutil
import sys


def _platform() -> str:
    """os.platform() as Node names it."""
    return {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform, sys.platform)


def _command_exists(command: str) -> bool:
    return shutil.which(command) is not None


def is_seatbelt_available() -> bool:
    return _platform() == "darwin" and _command_exists("sandbox-exec")


def is_bwrap_available() -> bool:
    return _platform() == "linux" and _command_exists("bwrap")


def detect_isolation() -> dict:
    plat = _platform()
    if plat == "darwin":
        available = is_seatbelt_available()
        return {"backend": "seatbelt", "available": available,
                "message": "macOS seatbelt (sandbox-exec) is available" if available
                else "macOS seatbelt (sandbox-exec) not found - this is unexpected on macOS"}
    if plat == "linux":
        available = is_bwrap_available()
        return {"backend": "bwrap", "available": available,
                "message": "Linux bubblewrap (bwrap) is available" if available
                else ("Linux bubblewrap (bwrap) not found. Install with: apt install bubblewrap (Debian/Ubuntu) "
                      "or dnf install bubblewrap (Fedora)")}
    return {"backend": "none", "available": False,
            "message": f"Native sandboxing is not supported on {plat}. Commands will run without isolation."}


def is_isolation_available(backend) -> bool:
    if backend == "seatbelt":
        return is_seatbelt_available()
    if backend == "bwrap":
        return is_bwrap_available()
    return backend == "none"


