"""Native isolation backends: detection, and the bwrap wrapper (upstream `sandbox/native-sandbox/`).

seatbelt is macOS only; this reference runs on Linux, where it is never available.
"""
from __future__ import annotations

import os
import shutil
import sys

DEFAULT_READONLY_BINDS = [
    "/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc/alternatives", "/etc/ssl", "/etc/ca-certificates",
    "/etc/resolv.conf", "/etc/hosts", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/ld.so.cache",
    "/etc/localtime",
]


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


def build_bwrap_command(command: str, workspace_path: str, config: dict) -> list[str]:
    """argv for `bwrap ... -- sh -c <command>`, as buildBwrapCommand lays it out."""
    if config.get("bwrapArgs"):
        return ["bwrap", *config["bwrapArgs"], "--", "sh", "-c", command]
    args = ["--unshare-pid", "--unshare-ipc", "--unshare-uts"]
    if not config.get("allowNetwork"):
        args.append("--unshare-net")
    args += ["--proc", "/proc", "--tmpfs", "/tmp"]
    for p in DEFAULT_READONLY_BINDS:
        args += ["--ro-bind-try", p, p]
    for p in config.get("readOnlyPaths") or []:
        args += ["--ro-bind", p, p]
    if config.get("allowSystemBinaries") is not False:
        # upstream binds the directory of the Node binary; the runtime here is Python
        runtime_dir = os.path.dirname(sys.executable)
        if not any(runtime_dir.startswith(p) for p in DEFAULT_READONLY_BINDS):
            args += ["--ro-bind", runtime_dir, runtime_dir]
        args += ["--ro-bind-try", "/opt", "/opt", "--ro-bind-try", "/snap", "/snap"]
    args += ["--ro-bind" if config.get("readOnly") else "--bind", workspace_path, workspace_path]
    for p in config.get("readWritePaths") or []:
        args += ["--bind", p, p]
    args += ["--dev", "/dev", "--chdir", workspace_path, "--die-with-parent", "--", "sh", "-c", command]
    return ["bwrap", *args]


def wrap_command(command: str, backend: str, workspace_path: str, config: dict) -> list[str] | None:
    """The argv that runs `command` under the backend, or None for 'none' (a plain /bin/sh -c)."""
    if backend == "bwrap":
        return build_bwrap_command(command, workspace_path, config)
    if backend == "seatbelt":  # never reached on Linux: the constructor refuses it
        raise NotImplementedError("seatbelt isolation is macOS only")
    return None

