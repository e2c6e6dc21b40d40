"""Workspace: a filesystem and/or a sandbox, a tools configuration, and a lifecycle."""
from __future__ import annotations

import random
import string

from .errors import FilesystemNotAvailableError, SandboxNotAvailableError


class Workspace:
    def __init__(self, filesystem=None, sandbox=None, tools: dict | None = None,
                 id: str | None = None, name: str | None = None):
        self.id = id or "".join(random.choices(string.ascii_lowercase + string.digits, k=12))
        self.name = name or f"workspace-{self.id}"
        self.filesystem = filesystem
        self.sandbox = sandbox
        self.tools_config = tools
        self.status = "pending"

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

    def set_tools_config(self, config: dict | None) -> None:
        self.tools_config = config

    def require_filesystem(self):
        if self.filesystem is None:
            raise FilesystemNotAvailableError()
        return self.filesystem

    def require_sandbox(self):
        if self.sandbox is None:
            raise SandboxNotAvailableError()
        return self.sandbox

    # -- lifecycle ------------------------------------------------------------------------------

    def init(self) -> None:
        self.status = "initializing"
        if self.filesystem is not None:
            self.filesystem.init()
        if self.sandbox is not None and hasattr(self.sandbox, "start"):
            self.sandbox.start()
        self.status = "ready"

    def destroy(self) -> None:
        self.status = "destroying"
        if self.sandbox is not None and hasattr(self.sandbox, "destroy"):
            self.sandbox.destroy()
        if self.filesystem is not None:
            self.filesystem.destroy()
        self.status = "destroyed"
