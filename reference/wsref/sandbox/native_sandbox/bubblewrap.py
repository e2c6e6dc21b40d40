"""buildBwrapCommand (upstream `sandbox/native-sandbox/bubblewrap.ts`): the argv that runs a command under bwrap."""
from __future__ import annotations

import os
import sys

DEFAULT_READONLY_BINDS = [
    "/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc/alternatives", "/etc/ssl", "/etc/ca-certificates",
    "/etc/resolv.conf", "/etc/hosts", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/ld.so.cache",
    "/etc/localtime",
]


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
