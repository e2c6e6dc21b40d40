"""Workspace: a filesystem and/or a sandbox, a tools configuration, and a lifecycle.

Follows workspace.ts of @mastra/core 1.71.0 for static providers (no resolvers, mounts, search,
skills, LSP or browser): the generated id and name, the status machine of init/stop/destroy,
getInfo and getInstructions.
"""
from __future__ import annotations

import os
import random
import string
import time
from datetime import datetime, timezone

from .errors import FilesystemNotAvailableError, SandboxNotAvailableError, WorkspaceError

_BASE36 = string.digits + string.ascii_lowercase


def _base36(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, 36)
        out = _BASE36[r] + out
    return out or "0"


def _now() -> datetime:
    """new Date(): millisecond precision, UTC."""
    ms = time.time_ns() // 1_000_000
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


def _total_memory_mb() -> int | None:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024 / 1024)
    except (ValueError, OSError, AttributeError):
        return None


def _defined(d: dict) -> dict:
    """An object literal with its undefined properties left out (as JSON.stringify does)."""
    return {k: v for k, v in d.items() if v is not None}


class Workspace:
    def __init__(self, filesystem=None, sandbox=None, tools: dict | None = None,
                 id: str | None = None, name: str | None = None):
        # generateId(): `ws-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
        self.id = id or (f"ws-{_base36(time.time_ns() // 1_000_000)}-"
                         + "".join(random.choices(_BASE36, k=6)))
        self.name = name or f"workspace-{self.id[:8]}"
        self.createdAt = _now()
        self.lastAccessedAt = _now()
        self.filesystem = filesystem
        self.sandbox = sandbox
        self.tools_config = tools
        self._status = "pending"
        self._teardown_started = False
        if filesystem is None and sandbox is None:
            raise WorkspaceError("Workspace requires at least a filesystem, sandbox, or skills", "NO_PROVIDERS")

    @property
    def status(self) -> str:
        return self._status

    # -- tools configuration ------------------------------------------------------------------

    def tool_config(self, tool_id: str) -> dict:
        value = (self.tools_config or {}).get(tool_id)
        return value if isinstance(value, dict) else {}

    def tool_enabled(self, tool_id: str, request_context: dict | None = None) -> bool:
        """Per-tool over global over true; a function gets {requestContext, workspace}; fail-closed."""
        from .host_functions import resolve_dynamic
        value = (self.tools_config or {}).get("enabled", True)
        per_tool = self.tool_config(tool_id).get("enabled")
        if per_tool is not None:
            value = per_tool
        return resolve_dynamic(value, {"requestContext": request_context or {}, "workspace": self}, False)

    def tool_setting(self, tool_id: str, key: str, default=None):
        """A setting that a tool's own config overrides over the global one (requireApproval)."""
        value = self.tool_config(tool_id).get(key)
        if value is None:
            value = (self.tools_config or {}).get(key, default)
        return value

    def get_tools_config(self):
        return self.tools_config

    def set_tools_config(self, config: dict | None = None) -> None:
        """A full replacement; takes effect at the next tool build."""
        self.tools_config = config

    def has_filesystem_config(self) -> bool:
        return self.filesystem is not None

    def has_sandbox_config(self) -> bool:
        return self.sandbox is not None

    def require_filesystem(self):
        if self.filesystem is None:
            raise FilesystemNotAvailableError()
        return self.filesystem

    def require_sandbox(self):
        if self.sandbox is None:
            raise SandboxNotAvailableError()
        return self.sandbox

    def touch(self) -> None:
        """What every tool execution does first (resolveEffectiveWorkspace)."""
        self.lastAccessedAt = _now()

    # -- search (not configured in wsref) -----------------------------------------------------

    can_bm25 = False
    can_vector = False
    can_hybrid = False
    skills = None

    # -- lifecycle ------------------------------------------------------------------------------

    def init(self) -> None:
        self._status = "initializing"
        try:
            if self.filesystem is not None:
                self.filesystem.init()
            if self.sandbox is not None and hasattr(self.sandbox, "start"):
                self.sandbox.start()
            self._status = "ready"
        except Exception:
            self._status = "error"
            raise

    def stop(self) -> None:
        """Stops the sandbox (LocalSandbox kills its background processes); not a teardown."""
        if self._teardown_started or self._status == "destroyed":
            return
        if self.sandbox is not None and hasattr(self.sandbox, "stop"):
            self.sandbox.stop()

    def destroy(self) -> None:
        if self._status == "destroyed":
            return
        self._teardown_started = True
        self._status = "destroying"
        try:
            if self.sandbox is not None and hasattr(self.sandbox, "destroy"):
                self.sandbox.destroy()
            if self.filesystem is not None:
                self.filesystem.destroy()  # LocalFilesystem keeps the files on disk
            self._status = "destroyed"
        except Exception:
            self._status = "error"
            raise

    # -- information ----------------------------------------------------------------------------

    def get_info(self, options: dict | None = None) -> dict:
        options = options or {}
        info = {"id": self.id, "name": self.name, "status": self._status,
                "createdAt": self.createdAt, "lastAccessedAt": self.lastAccessedAt}
        fs = self.filesystem
        if fs is not None:
            fs_info = fs.get_info() if hasattr(fs, "get_info") else {}
            info["filesystem"] = _defined({
                "id": fs_info.get("id", getattr(fs, "id", None)),
                "name": fs_info.get("name", getattr(fs, "name", None)),
                "provider": fs_info.get("provider", getattr(fs, "provider", None)),
                "readOnly": fs_info.get("readOnly") if fs_info.get("readOnly") is not None else getattr(fs, "readOnly", None),
                "status": fs_info.get("status"),
                "error": fs_info.get("error"),
                "icon": fs_info.get("icon"),
                "metadata": fs_info.get("metadata"),
            })
            if options.get("includeFileCount"):
                try:
                    info["filesystem"]["totalFiles"] = len(self._all_files(fs, ".", 0, 10))
                except Exception:
                    pass  # the filesystem may not support listing
        sb = self.sandbox
        if sb is not None:
            sb_info = sb.get_info() if hasattr(sb, "get_info") else {
                "status": sb.status,
                "resources": _defined({"memoryMB": _total_memory_mb(), "cpuCores": os.cpu_count()}),
            }
            info["sandbox"] = _defined({
                "provider": getattr(sb, "provider", None),
                "status": sb_info.get("status") or getattr(sb, "status", None),
                "resources": sb_info.get("resources"),
            })
        return info

    def _all_files(self, fs, directory: str, depth: int, max_depth: int) -> list[str]:
        if depth >= max_depth:
            return []
        files = []
        for entry in fs.readdir(directory):
            name = entry["name"] if isinstance(entry, dict) else entry.name
            kind = entry["type"] if isinstance(entry, dict) else entry.type
            link = entry.get("isSymlink") if isinstance(entry, dict) else getattr(entry, "isSymlink", False)
            full = name if directory in (".", "") else f"{directory}/{name}"
            if kind == "file":
                files.append(full)
            elif kind == "directory" and not link:
                files += self._all_files(fs, full, depth + 1, max_depth)
        return files

    def get_instructions(self, opts: dict | None = None) -> str:
        """The sandbox's instructions, then the filesystem's, blank-line separated, empty parts dropped."""
        parts = []
        if self.sandbox is not None and hasattr(self.sandbox, "get_instructions"):
            text = self.sandbox.get_instructions()
            if text:
                parts.append(text)
        if self.filesystem is not None and hasattr(self.filesystem, "get_instructions"):
            text = self.filesystem.get_instructions()
            if text:
                parts.append(text)
        return "\n\n".join(parts)
