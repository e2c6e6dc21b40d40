"""LocalSandbox's mounts (the "Mount Support" half of upstream `sandbox/local-sandbox.ts`).

A local mount is a symlink `<workingDirectory>/<mountPath>` -> the filesystem's basePath, with a
marker file `<os.tmpdir()>/.mastra-mounts/mount-<hash>` holding `hostPath|configHash`, so a later
mount can tell its own symlink (same config, or a changed one) from a foreign one. Unmounting
removes the symlink and the marker; stop() and destroy() unmount what this sandbox mounted.
"""
from __future__ import annotations

import os
import re

from ..js import node_path as nodepath

_SAFE_MOUNT_PATH = re.compile(r"^/[a-zA-Z0-9_.\-/]+$")


def marker_dir() -> str:
    """`path.join(os.tmpdir(), '.mastra-mounts')`; os.tmpdir() reads TMPDIR, TMP, TEMP each call."""
    tmp = os.environ.get("TMPDIR") or os.environ.get("TMP") or os.environ.get("TEMP") or "/tmp"
    if len(tmp) > 1 and tmp.endswith("/"):
        tmp = tmp[:-1]
    return nodepath.join(tmp, ".mastra-mounts")


def _validate(mount_path: str) -> None:
    if not _SAFE_MOUNT_PATH.match(mount_path):
        raise ValueError(f"Invalid mount path: {mount_path}. Must be an absolute path with alphanumeric, dash, dot, "
                         "underscore, or slash characters only.")
    segments = [s for s in mount_path.split("/") if s]
    if not segments:
        raise ValueError(f'Invalid mount path: {mount_path}. Root path "/" is not allowed.')
    if any(s in (".", "..") for s in segments):
        raise ValueError(f'Invalid mount path: {mount_path}. Path segments cannot be "." or "..".')


def _normalize(mount_path: str) -> str:
    return "/" + "/".join(s for s in mount_path.split("/") if s)


def _host_path(sandbox, mount_path: str) -> str:
    return nodepath.join(sandbox.working_directory, mount_path.lstrip("/"))


def mount(sandbox, filesystem, mount_path: str) -> dict:
    _validate(mount_path)
    mount_path = _normalize(mount_path)
    host_path = _host_path(sandbox, mount_path)
    get_config = getattr(filesystem, "get_mount_config", None)
    config = get_config() if get_config is not None else None
    mounts = sandbox.mounts
    if not config:
        error = f'Filesystem "{filesystem.id}" does not provide a mount config'
        mounts.set(mount_path, filesystem=filesystem, state="error", error=error)
        return {"success": False, "mountPath": mount_path, "error": error}
    existing = _check_existing(sandbox, host_path, config)
    if existing == "matching":
        mounts.set(mount_path, filesystem=filesystem, state="mounted", config=config)
        sandbox._active_mount_paths[mount_path] = None
        _add_isolation_path(sandbox, mount_path, host_path)
        return {"success": True, "mountPath": mount_path}
    if existing == "foreign":
        error = (f"Cannot mount at {host_path}: path is already occupied by an existing mount or symlink that was "
                 "not created by Mastra. Unmount it manually or use a different mount path.")
        mounts.set(mount_path, filesystem=filesystem, state="error", config=config, error=error)
        return {"success": False, "mountPath": mount_path, "error": error}
    if existing == "mismatched":
        unmount(sandbox, mount_path)
    if config.get("type") != "local":
        error = f"Unsupported mount type: {config.get('type')}"
        mounts.set(mount_path, filesystem=filesystem, state="unsupported", config=config, error=error)
        return {"success": False, "mountPath": mount_path, "error": error}
    mounts.set(mount_path, filesystem=filesystem, state="mounting", config=config)
    try:
        if os.listdir(host_path):
            error = (f"Cannot mount at {host_path}: directory exists and is not empty. Mounting would hide existing "
                     "files. Use a different path or empty the directory first.")
            mounts.set(mount_path, filesystem=filesystem, state="error", config=config, error=error)
            return {"success": False, "mountPath": mount_path, "error": error}
        os.rmdir(host_path)  # an empty folder from an earlier attempt: the symlink takes its place
    except NotADirectoryError:
        error = (f"Cannot mount at {host_path}: path is a regular file. Use a different mount path or remove the "
                 "file first.")
        mounts.set(mount_path, filesystem=filesystem, state="error", config=config, error=error)
        return {"success": False, "mountPath": mount_path, "error": error}
    except OSError:
        pass  # ENOENT: nothing there yet, as wanted
    try:
        os.makedirs(nodepath.dirname(host_path), exist_ok=True)
        os.symlink(config["basePath"], host_path)
    except OSError as exc:
        from ..js.errors import NodeSystemError
        code = __import__("errno").errorcode.get(exc.errno, "EIO")
        error = _js_error_string(NodeSystemError(code, "symlink", config["basePath"], host_path))
        mounts.set(mount_path, filesystem=filesystem, state="error", config=config, error=error)
        return {"success": False, "mountPath": mount_path, "error": error}
    mounts.set(mount_path, filesystem=filesystem, state="mounted", config=config)
    sandbox._active_mount_paths[mount_path] = None
    _write_marker(sandbox, mount_path, host_path)
    _add_isolation_path(sandbox, mount_path, host_path)
    return {"success": True, "mountPath": mount_path}


def unmount(sandbox, mount_path: str) -> None:
    _validate(mount_path)
    mount_path = _normalize(mount_path)
    host_path = _host_path(sandbox, mount_path)
    _remove_isolation_path(sandbox, mount_path)
    is_symlink = os.path.islink(host_path)
    sandbox.mounts.delete(mount_path)
    sandbox._active_mount_paths.pop(mount_path, None)
    try:
        os.unlink(nodepath.join(marker_dir(), sandbox.mounts.marker_filename(host_path)))
    except OSError:
        pass
    if is_symlink:
        try:
            os.unlink(host_path)
        except OSError:
            pass


def unmount_all(sandbox) -> None:
    """What stop() and destroy() do after killing the processes: every active mount, best-effort."""
    for mount_path in list(sandbox._active_mount_paths):
        try:
            unmount(sandbox, mount_path)
        except Exception:
            pass


def _write_marker(sandbox, mount_path: str, host_path: str) -> None:
    entry = sandbox.mounts.get(mount_path)
    if not entry or not entry.get("configHash"):
        return
    try:
        os.makedirs(marker_dir(), exist_ok=True)
        with open(nodepath.join(marker_dir(), sandbox.mounts.marker_filename(host_path)), "w", encoding="utf-8") as f:
            f.write(f"{host_path}|{entry['configHash']}")
    except OSError:
        pass


def _has_marker(sandbox, host_path: str) -> bool:
    return os.access(nodepath.join(marker_dir(), sandbox.mounts.marker_filename(host_path)), os.F_OK)


def _check_existing(sandbox, host_path: str, config: dict) -> str:
    """'not_mounted', 'matching', 'mismatched' (ours, another config) or 'foreign' (not ours)."""
    if not os.path.islink(host_path):
        return "not_mounted"
    if config.get("type") == "local":
        try:
            target = os.readlink(host_path)
        except OSError:
            target = None
        resolved = nodepath.resolve(nodepath.dirname(host_path), target) if target else None
        if resolved is None or resolved != nodepath.resolve(config["basePath"]):
            return "mismatched" if _has_marker(sandbox, host_path) else "foreign"
        try:
            with open(nodepath.join(marker_dir(), sandbox.mounts.marker_filename(host_path)), encoding="utf-8") as f:
                parsed = sandbox.mounts.parse_marker_content(f.read().strip())
        except OSError:
            return "foreign"
        if parsed is None:
            return "mismatched"
        if parsed["path"] == host_path and parsed["configHash"] == sandbox.mounts.compute_config_hash(config):
            return "matching"
        return "mismatched"
    return "mismatched" if _has_marker(sandbox, host_path) else "foreign"


def _add_isolation_path(sandbox, mount_path: str, host_path: str) -> None:
    """With isolation, the mount's real folder joins readWritePaths (bwrap cannot bind a symlink)."""
    if sandbox.isolation == "none":
        return
    norm = _normalize(mount_path)
    if norm in sandbox._mount_path_to_isolation_path:
        return
    try:
        isolation_path = os.path.realpath(host_path, strict=True)
    except OSError:
        isolation_path = host_path
    paths = sandbox.native_config["readWritePaths"]
    if isolation_path not in paths:
        paths.append(isolation_path)
    if isolation_path not in sandbox._initial_read_write_paths:
        counts = sandbox._mount_isolation_ref_count
        counts[isolation_path] = counts.get(isolation_path, 0) + 1
    sandbox._mount_path_to_isolation_path[norm] = isolation_path


def _remove_isolation_path(sandbox, mount_path: str) -> None:
    if sandbox.isolation == "none":
        return
    norm = _normalize(mount_path)
    isolation_path = sandbox._mount_path_to_isolation_path.pop(norm, None)
    if isolation_path is None or isolation_path in sandbox._initial_read_write_paths:
        return
    left = sandbox._mount_isolation_ref_count.get(isolation_path, 0) - 1
    if left <= 0:
        sandbox._mount_isolation_ref_count.pop(isolation_path, None)
        paths = sandbox.native_config["readWritePaths"]
        if isolation_path in paths:
            paths.remove(isolation_path)
    else:
        sandbox._mount_isolation_ref_count[isolation_path] = left


def _js_error_string(exc) -> str:
    from ..errors import js_name
    return f"{js_name(exc) or 'Error'}: {getattr(exc, 'message', None) or exc}"
