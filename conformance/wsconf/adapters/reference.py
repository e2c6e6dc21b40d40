"""The reference implementation (wsref), called in process."""
from __future__ import annotations

import base64
import concurrent.futures
import os
from dataclasses import asdict
from datetime import datetime

import wsref
from wsref import LocalFilesystem, Workspace, create_workspace_tools
from wsref.errors import js_name
from wsref.local_filesystem import FileStat, iso
from wsref.tools.base import is_media_result

from .base import Adapter, AdapterTimeout, Session

CAPABILITIES = frozenset({
    "filesystem", "local_paths", "symlinks", "file_modes", "empty_dirs", "tilde_home", "media",
    "read_only", "allowed_paths", "tool_config", "fs_interface", "posix_errors",
})


def to_json(value):
    """Plain data for a Result: bytes and dates tagged the way the protocol tags them."""
    if isinstance(value, (bytes, bytearray)):
        return {"$bytes": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, datetime):
        return {"$date": iso(value)}
    if isinstance(value, FileStat):
        return {k: to_json(v) for k, v in asdict(value).items() if v is not None}
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def from_json(value):
    if isinstance(value, dict) and set(value) == {"$bytes"}:
        return base64.b64decode(value["$bytes"])
    if isinstance(value, dict):
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


def result_of(output, model=None) -> dict:
    if isinstance(output, str):
        return {"kind": "text", "value": output, "model": model}
    if is_media_result(output):
        value = {k: output[k] for k in ("text", "mediaType", "data")}
        return {"kind": "media", "value": value, "model": model}
    return {"kind": "value", "value": to_json(output), "model": model}


def error_of(exc: BaseException) -> dict:
    return {"kind": "error", "message": getattr(exc, "message", None) or str(exc),
            "code": getattr(exc, "code", None), "name": js_name(exc)}


# WorkspaceFilesystem method -> (python method, how positional JS args map to keyword args)
FS_METHODS = {
    "readFile": ("read_file", ["path", "options"]),
    "writeFile": ("write_file", ["path", "content", "options"]),
    "appendFile": ("append_file", ["path", "content"]),
    "deleteFile": ("delete_file", ["path", "options"]),
    "copyFile": ("copy_file", ["src", "dest", "options"]),
    "moveFile": ("move_file", ["src", "dest", "options"]),
    "mkdir": ("mkdir", ["path", "options"]),
    "rmdir": ("rmdir", ["path", "options"]),
    "readdir": ("readdir", ["path", "options"]),
    "exists": ("exists", ["path"]),
    "stat": ("stat", ["path"]),
    "realpath": ("realpath", ["path"]),
    "getInfo": ("get_info", []),
    "getInstructions": ("get_instructions", []),
    "init": ("init", []),
    "destroy": ("destroy", []),
}


class ReferenceSession(Session):
    def __init__(self, adapter: "ReferenceAdapter", workspace: Workspace, home: str):
        self.adapter = adapter
        self.workspace = workspace
        self.home = home
        self._tools = None

    def _run(self, fn):
        os.environ["HOME"] = self.home
        return self.adapter.run_with_timeout(fn)

    def _toolset(self):
        if self._tools is None:
            self._tools = create_workspace_tools(self.workspace)
        return self._tools

    def tools(self) -> list[dict]:
        return [{"name": t.name, "description": t.description, "inputSchema": t.input_schema,
                 "requireApproval": t.require_approval} for t in self._toolset().values()]

    def call(self, tool: str, args: dict) -> dict:
        try:
            tools = self._toolset()
            if tool not in tools:
                raise KeyError(f"no tool named {tool!r}")
            bound = tools[tool]
            output = self._run(lambda: bound.execute(args))
            return result_of(output, bound.to_model_output(output))
        except AdapterTimeout:
            raise
        except Exception as exc:  # a tool that throws is a result, not a fault
            return error_of(exc)

    def fs(self, method: str, args: list) -> dict:
        fs = self.workspace.filesystem
        if method not in FS_METHODS:
            return {"kind": "error", "message": f"filesystem has no method {method!r}", "code": None, "name": "TypeError"}
        name, params = FS_METHODS[method]
        args = from_json(list(args))
        kwargs = {}
        for param, value in zip(params, args):
            if param == "options":
                kwargs.update(value or {})
            else:
                kwargs[param] = value
        if method == "readFile":
            kwargs = {"input_path": kwargs.pop("path"), **kwargs}
        elif "path" in kwargs:
            kwargs["input_path"] = kwargs.pop("path")
        try:
            return result_of(self._run(lambda: getattr(fs, name)(**kwargs)))
        except AdapterTimeout:
            raise
        except Exception as exc:
            return error_of(exc)

    def close(self) -> None:
        self.workspace.destroy()


class ReferenceAdapter(Adapter):
    name = "wsref"
    version = wsref.__version__
    capabilities = CAPABILITIES

    def __init__(self, timeout: float = 30.0):
        self.timeout = timeout
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def run_with_timeout(self, fn):
        future = self._pool.submit(fn)
        try:
            return future.result(timeout=self.timeout)
        except concurrent.futures.TimeoutError:
            # The stuck thread cannot be killed; abandon this pool so the next call gets a fresh one.
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
            raise AdapterTimeout(f"call did not return within {self.timeout:g} s") from None

    def open(self, root: str, outside: str, home: str, workspace: dict) -> Session:
        fs_config = workspace.get("filesystem", {})
        filesystem = None if fs_config is None else LocalFilesystem(basePath=root, **(fs_config or {}))
        ws = Workspace(filesystem=filesystem, tools=workspace.get("tools"))
        return ReferenceSession(self, ws, home)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
