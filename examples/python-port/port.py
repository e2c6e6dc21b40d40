#!/usr/bin/env python3
"""A first port of three Mastra workspace tools (read_file, list_files, file_stat) in plain Python,
with no @mastra/core and nothing but the standard library, written from wsconf's shipped docs
(spec/first-port.md, spec/protocol.md) and `wsconf show` of the cases.

It answers the six ops a filesystem-only port answers (hello, open, tools, call, close, shutdown),
one JSON request per stdin line and one JSON response per stdout line. The tools' descriptions
and schemas are the upstream's, byte for byte, from `wsconf export` (tools_from_export.py wrote
tools.json). What it does not do yet is listed, with the reason, in
wsconf-expectations/example-python-port.yaml.
"""
from __future__ import annotations

import base64
import json
import mimetypes
import os
import sys
from datetime import datetime, timezone
from pathlib import Path

READ, LIST, STAT = "mastra_workspace_read_file", "mastra_workspace_list_files", "mastra_workspace_file_stat"
TOOLS = json.loads((Path(__file__).parent / "tools.json").read_text(encoding="utf-8"))
# application/* types that are text all the same (read_file reads them as UTF-8)
TEXT_APPLICATION = {"application/json", "application/javascript", "application/typescript", "application/xml",
                    "application/x-sh", "application/x-yaml", "application/yaml", "application/sql"}
OUTSIDE = 'access (path is outside the workspace; use a path relative to the workspace root, without a leading "/")'


class ToolError(Exception):
    """What a tool throws: its message, the error's name and its POSIX code (capability posix_errors)."""

    def __init__(self, name: str, message: str, code: str | None):
        super().__init__(message)
        self.name, self.code = name, code


def not_found(path):
    return ToolError("FileNotFoundError", f"File not found: {path}", "ENOENT")


# Node's wording of a system error (libuv's), for the codes a local folder gives
NODE_MESSAGES = {"ENOTDIR": "not a directory", "ELOOP": "too many symbolic links encountered",
                 "EACCES": "permission denied", "ENAMETOOLONG": "name too long"}


def node_error(error: OSError, syscall: str, path: str) -> ToolError:
    import errno
    code = errno.errorcode.get(error.errno, "EIO")
    return ToolError("Error", f"{code}: {NODE_MESSAGES.get(code, error.strerror.lower())}, {syscall} '{path}'", code)


# -- paths: a real folder (absolute_paths, containment, host_paths), `~` (tilde_home), contained in the root, links followed ------

def resolve(session: dict, path: str) -> str:
    root = session["root"]
    expanded = session["home"] + path[1:] if path == "~" or path.startswith("~/") else path
    absolute = os.path.normpath(expanded if expanded.startswith("/") else os.path.join(root, expanded))
    if not session["contained"]:  # filesystem: {contained: false}
        return absolute
    if not inside(absolute, root) and not inside(real(absolute), real(root)):
        raise ToolError("PermissionError", f"Permission denied: {hint(root, path)} on {path}", "EACCES")
    try:  # a link inside the root may point out of it
        target = os.path.realpath(absolute, strict=True)
    except FileNotFoundError:
        return absolute
    except OSError as error:
        raise node_error(error, "realpath", absolute) from None
    if not inside(target, real(root)):
        raise ToolError("PermissionError", f"Permission denied: access on {absolute}", "EACCES")
    return absolute


def inside(path: str, root: str) -> bool:
    relative = os.path.relpath(path, root)
    return not relative.startswith("..") and not os.path.isabs(relative)


def real(path: str) -> str:
    """The real path of the nearest existing ancestor, with the rest put back."""
    rest = []
    while not os.path.exists(path) and os.path.dirname(path) != path:  # a dangling link does not exist
        path, name = os.path.split(path)
        rest.insert(0, name)
    return os.path.join(os.path.realpath(path), *rest)


def hint(root: str, path: str) -> str:
    """An absolute path whose first part exists in the root was probably meant relative."""
    stripped = path.lstrip("/")
    if not path.startswith("/") or not stripped:
        return "access"
    first = stripped.split("/", 1)[0]
    if first not in (".", "..") and os.path.exists(os.path.join(root, first)):
        return f'access (path is outside the workspace; use a relative path like "{stripped}")'
    return OUTSIDE


def stat_of(session: dict, path: str):
    absolute = resolve(session, path)
    try:
        return absolute, os.stat(absolute)
    except FileNotFoundError:
        raise not_found(path) from None


def relative(session: dict, absolute: str) -> str:
    return os.path.relpath(absolute, session["root"]) if absolute != session["root"] else ""


def mime_of(path: str) -> str:
    return mimetypes.guess_type(path, strict=False)[0] or "application/octet-stream"


def text_like(mime: str) -> bool:
    return (mime == "application/octet-stream" or mime.startswith("text/") or mime in TEXT_APPLICATION
            or mime.endswith(("+json", "+xml")))


# -- the tools --------------------------------------------------------------------------------

def read_file(session: dict, args: dict) -> str:
    path, encoding = args["path"], args.get("encoding")
    absolute, st = stat_of(session, path)
    shown = relative(session, absolute)
    if os.path.isdir(absolute):
        raise ToolError("IsDirectoryError", f"Path is a directory: {path}", "EISDIR")
    mime = mime_of(absolute)
    if not encoding and not text_like(mime):
        return (f"{shown} ({st.st_size} bytes, {mime}) — binary file not readable as text. Pass an explicit "
                "`encoding` (e.g. `base64`) to read the raw bytes, or configure `mediaTypes` on the read_file tool "
                "to surface it as a media part.")
    data = Path(absolute).read_bytes()
    if encoding in ("base64", "hex", "binary"):
        body = {"base64": lambda: base64.b64encode(data).decode(), "hex": data.hex,
                "binary": lambda: data.decode("latin-1")}[encoding]()
        return f"{shown} ({st.st_size} bytes, {encoding})\n{body}"
    lines = data.decode("utf-8", "replace").split("\n")
    offset, limit = args.get("offset"), args.get("limit")
    first = max(1, offset or 1)
    last = min(len(lines), first + limit - 1 if limit else len(lines))
    window = lines[first - 1:last] if first <= last else []
    if offset is not None or limit is not None:
        start, end = (first, last) if window else (0, 0)
        header = f"{shown} (lines {start}-{end} of {len(lines)}, {st.st_size} bytes)"
    else:
        header = f"{shown} ({st.st_size} bytes)"
    if args.get("showLineNumbers", True) is False or not window:
        return f"{header}\n" + "\n".join(window)
    width = max(6, len(str(last)) + 1)
    return f"{header}\n" + "\n".join(f"{first + i:>{width}}→{line}" for i, line in enumerate(window))


def file_stat(session: dict, args: dict) -> str:
    path = args["path"]
    try:
        absolute, st = stat_of(session, path)
    except ToolError as error:
        if error.code == "ENOENT":
            return f"{path}: not found"
        raise
    kind = "directory" if os.path.isdir(absolute) else "file"
    modified = datetime.fromtimestamp(round(st.st_mtime_ns / 1e6) / 1e3, timezone.utc)
    return f"{path} Type: {kind} Size: {st.st_size} bytes Modified: {modified.strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3]}Z"


def number(value) -> str:
    """A number as JavaScript prints it: 2.0 is 2."""
    return str(int(value)) if float(value).is_integer() else str(value)


def list_files(session: dict, args: dict) -> str:
    path = args.get("path", ".")
    depth_limit = args.get("maxDepth", 2)
    if depth_limit <= 0:  # nothing is read, not even the folder
        return f".\n\n0 directories, 0 files (truncated at depth {number(depth_limit)})"
    absolute = resolve(session, path)
    if not os.path.isdir(absolute):
        if os.path.exists(absolute):
            raise ToolError("NotDirectoryError", f"Path is not a directory: {path}", "ENOTDIR")
        raise ToolError("DirectoryNotFoundError", f"Directory not found: {path}", "ENOENT")
    show_hidden, dirs_only = args.get("showHidden", False), args.get("dirsOnly", False)
    excluded = [p.strip() for p in (args.get("exclude") or "").split("|") if p.strip()]
    extension = args.get("extension")
    if extension and not extension.startswith("."):
        extension = "." + extension
    lines, counts = ["."], {"directory": 0, "file": 0, "truncated": False}

    def walk(folder: str, depth: int) -> None:
        if depth >= depth_limit:
            counts["truncated"] = True
            return
        entries = []
        for entry in os.scandir(folder):
            try:
                is_dir = entry.is_dir()  # a link to a folder is shown as a folder, not entered
            except OSError:
                is_dir = False  # a link loop is shown as a file

            if (is_dir and entry.name == ".git") or (not show_hidden and entry.name.startswith(".")):
                continue
            if any(p in entry.name for p in excluded) or (dirs_only and not is_dir):
                continue
            if extension and not dirs_only and not is_dir and not entry.name.endswith(extension):
                continue
            # folders first, then by UTF-16 code units as JavaScript compares strings
            entries.append((0 if is_dir else 1, entry.name.encode("utf-16-be"), entry.name, entry.is_symlink(),
                            entry.path))
        for _, _, name, link, full in sorted(entries):
            lines.append("\t" * depth + (f"{name} -> {os.readlink(full)}" if link else name))
            if is_folder(full):
                counts["directory"] += 1
                if not link:
                    walk(full, depth + 1)
            else:
                counts["file"] += 1

    walk(absolute, 0)
    dirs, files = counts["directory"], counts["file"]
    summary = (f"{'1 directory' if dirs == 1 else f'{dirs} directories'}, "
               f"{'1 file' if files == 1 else f'{files} files'}")
    if counts["truncated"]:
        summary += f" (truncated at depth {number(depth_limit)})"
    return "\n".join(lines) + "\n\n" + summary


def is_folder(path: str) -> bool:
    try:
        return os.path.isdir(path)
    except OSError:
        return False


CALLS = {READ: read_file, LIST: list_files, STAT: file_stat}


# -- the protocol: six ops --------------------------------------------------------------------

sessions: dict[str, dict] = {}


def hello(params):
    return {"protocol": 1, "implementation": "example-python-port", "version": "0.1.0",
            # how its files behave: a real folder (paths, `~`, links, empty folders) and Node's error codes
            "capabilities": ["filesystem", "absolute_paths", "containment", "host_paths", "local_identity",
                             "symlinks", "empty_dirs", "tilde_home", "posix_errors"],
            "tools": ["read_file", "list_files", "file_stat"],
            "dependencies": {"python": sys.version.split()[0]}}


def open_session(params):
    workspace = params.get("workspace") or {}
    if workspace.get("filesystem", {}) is None and not workspace.get("sandbox"):
        return {"error": {"kind": "error", "message": "Workspace requires at least a filesystem, sandbox, or skills",
                          "code": "NO_PROVIDERS", "name": "WorkspaceError"}}
    name = f"s{len(sessions) + 1}"
    filesystem = workspace.get("filesystem", {})
    sessions[name] = {"root": params["root"], "home": params["home"], "filesystem": filesystem is not None,
                      "contained": (filesystem or {}).get("contained", True) is not False}
    return {"session": name}


def call(params):
    session = sessions[params["session"]]
    try:
        return {"kind": "text", "value": CALLS[params["tool"]](session, params.get("args") or {}), "model": None}
    except ToolError as error:
        return {"kind": "error", "message": str(error), "code": error.code, "name": error.name}


OPS = {
    "hello": hello,
    "open": open_session,
    "tools": lambda params: TOOLS if sessions[params["session"]]["filesystem"] else [],
    "call": call,
    "close": lambda params: sessions.pop(params["session"]) and None,
    "shutdown": lambda params: None,
}


def main() -> None:
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            reply({"id": None, "ok": False, "fault": "request is not JSON"})
            continue
        op = OPS.get(request.get("op"))
        if op is None:
            reply({"id": request.get("id"), "ok": False, "fault": f"unknown op {request.get('op')!r}"})
            continue
        try:
            reply({"id": request["id"], "ok": True, "result": op(request.get("params") or {})})
        except Exception as error:  # a bug of the port: a fault of this request, not a tool's error
            reply({"id": request["id"], "ok": False, "fault": f"{type(error).__name__}: {error}"})
        if request["op"] == "shutdown":
            return


def reply(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
