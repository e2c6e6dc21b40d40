"""CompositeFilesystem (upstream `filesystem/composite-filesystem.ts`): a Workspace's `mounts`.

Ported: the mount table (normalised paths, no nested mounts, read-only when every mount is),
routing a path to its mount, the lifecycle over the mounts, getInfo, the instructions, and the
WorkspaceFilesystem methods (each routed to its mount with the mount prefix stripped; the folders
above the mounts are virtual; a copy or move across mounts is a read then a write). The reference's
tools read LocalFilesystem's own helpers (contained readers, path resolution), so they run on a
LocalFilesystem only, not over a composite.
"""
from __future__ import annotations

import time
from datetime import datetime, timezone

from ..errors import PermissionError_
from ..js import node_path as nodepath
from ..js.strings import to_base36


class CompositeFilesystem:
    name = "CompositeFilesystem"
    provider = "composite"

    def __init__(self, mounts: dict):
        self.id = f"cfs-{to_base36(time.time_ns() // 1_000_000)}"  # no random part
        self.status = "ready"
        self._mounts: dict = {}
        for path, fs in mounts.items():
            self._mounts[self._normalize(path)] = fs
        if not self._mounts:
            raise ValueError("CompositeFilesystem requires at least one mount")
        # read-only when every mount is (else undefined)
        self.readOnly = True if all(getattr(fs, "readOnly", None) for fs in self._mounts.values()) else None
        for a in self._mounts:
            for b in self._mounts:
                if a != b and b.startswith(a + "/"):
                    raise ValueError(f'Nested mount paths are not supported: "{b}" is nested under "{a}"')

    @property
    def mount_paths(self) -> list[str]:
        return list(self._mounts)

    @property
    def mounts(self) -> dict:
        return self._mounts

    @staticmethod
    def _normalize(path: str) -> str:
        if not path or path in ("/", "."):
            return "/"
        n = nodepath.normalize(path)
        if n == ".":
            return "/"
        if not n.startswith("/"):
            n = "/" + n
        if len(n) > 1 and n.endswith("/"):
            n = n[:-1]
        return n

    def resolve_mount(self, path: str):
        """(filesystem, path inside it, mount path) of the longest mount holding path, or None."""
        normalized = self._normalize(path)
        best = None
        for mount_path, fs in self._mounts.items():
            if normalized == mount_path or normalized.startswith(mount_path + "/"):
                if best is None or len(mount_path) > len(best[0]):
                    best = (mount_path, fs)
        if best is None:
            return None
        fs_path = normalized[len(best[0]):]
        fs_path = "" if fs_path == "/" else fs_path[1:] if fs_path.startswith("/") else fs_path
        return best[1], fs_path, best[0]

    def _virtual_entries(self, path: str):
        """The entries of a folder above the mounts (its mount points and folders), or None."""
        normalized = self._normalize(path)
        if self.resolve_mount(normalized):
            return None
        entries: dict[str, dict] = {}
        for mount_path, fs in self._mounts.items():
            under = mount_path.startswith("/") if normalized == "/" else mount_path.startswith(normalized + "/")
            if not under:
                continue
            remaining = mount_path[1:] if normalized == "/" else mount_path[len(normalized) + 1:]
            name = remaining.split("/")[0]
            if name and name not in entries:
                entry = {"name": name, "type": "directory"}
                if remaining == name:  # a mount point: the filesystem's metadata (undefined left out)
                    mount = {k: getattr(fs, a, None) for k, a in (("provider", "provider"), ("icon", "icon"),
                             ("displayName", "displayName"), ("description", "description"), ("status", "status"),
                             ("error", "error"))}
                    entry["mount"] = {k: v for k, v in mount.items() if v is not None}
                entries[name] = entry
        return list(entries.values()) or None

    def _is_virtual(self, path: str) -> bool:
        normalized = self._normalize(path)
        if normalized == "/" and "/" not in self._mounts:
            return True
        return any(m.startswith(normalized + "/") for m in self._mounts)

    def _routed(self, path: str, label: str = "path"):
        resolved = self.resolve_mount(path)
        if resolved is None:
            raise Exception(f"No mount for {label}: {path}")
        return resolved

    @staticmethod
    def _assert_writable(fs, path: str, operation: str) -> None:
        if getattr(fs, "readOnly", None):
            raise PermissionError_(path, f"{operation} (filesystem is read-only)")

    # -- WorkspaceFilesystem, routed to the mounts ------------------------------------------------

    def read_file(self, input_path: str, encoding: str | None = None):
        fs, fs_path, _ = self._routed(input_path)
        return fs.read_file(fs_path, encoding)

    def write_file(self, input_path: str, content, **options) -> None:
        fs, fs_path, _ = self._routed(input_path)
        self._assert_writable(fs, input_path, "writeFile")
        return fs.write_file(fs_path, content, **options)

    def append_file(self, input_path: str, content) -> None:
        fs, fs_path, _ = self._routed(input_path)
        self._assert_writable(fs, input_path, "appendFile")
        return fs.append_file(fs_path, content)

    def delete_file(self, input_path: str, **options) -> None:
        fs, fs_path, _ = self._routed(input_path)
        self._assert_writable(fs, input_path, "deleteFile")
        return fs.delete_file(fs_path, **options)

    def copy_file(self, src: str, dest: str, **options) -> None:
        src_fs, src_path, src_mount = self._routed(src, "source")
        dest_fs, dest_path, dest_mount = self._routed(dest, "dest")
        self._assert_writable(dest_fs, dest, "copyFile")
        if src_mount == dest_mount:
            return src_fs.copy_file(src_path, dest_path, **options)
        content = src_fs.read_file(src_path)  # across mounts: read, then write
        dest_fs.write_file(dest_path, content, overwrite=options.get("overwrite"))

    def move_file(self, src: str, dest: str, **options) -> None:
        src_fs, src_path, src_mount = self._routed(src, "source")
        dest_fs, dest_path, dest_mount = self._routed(dest, "dest")
        self._assert_writable(dest_fs, dest, "moveFile")
        self._assert_writable(src_fs, src, "moveFile")  # the source is deleted
        if src_mount == dest_mount:
            return src_fs.move_file(src_path, dest_path, **options)
        self.copy_file(src, dest, **options)
        src_fs.delete_file(src_path)

    def readdir(self, input_path: str, **options) -> list:
        virtual = self._virtual_entries(input_path)
        if virtual:
            return virtual
        fs, fs_path, _ = self._routed(input_path)
        return fs.readdir(fs_path, **options)

    def mkdir(self, input_path: str, **options) -> None:
        fs, fs_path, _ = self._routed(input_path)
        self._assert_writable(fs, input_path, "mkdir")
        return fs.mkdir(fs_path, **options)

    def rmdir(self, input_path: str, **options) -> None:
        fs, fs_path, _ = self._routed(input_path)
        self._assert_writable(fs, input_path, "rmdir")
        return fs.rmdir(fs_path, **options)

    def exists(self, input_path: str) -> bool:
        if self._is_virtual(input_path):
            return True
        resolved = self.resolve_mount(input_path)
        if resolved is None:
            return False
        return True if resolved[1] == "" else resolved[0].exists(resolved[1])  # a mount point always exists

    def stat(self, input_path: str):
        normalized = self._normalize(input_path)
        resolved = None if self._is_virtual(input_path) else self._routed(input_path)
        if resolved is None or resolved[1] == "":  # a virtual folder or a mount point: a folder, now
            now = datetime.now(timezone.utc)
            parts = [p for p in normalized.split("/") if p]
            return {"name": parts[-1] if parts else "", "path": normalized, "type": "directory", "size": 0,
                    "createdAt": now, "modifiedAt": now}
        return resolved[0].stat(resolved[1])

    def get_filesystem_for_path(self, path: str):
        resolved = self.resolve_mount(path)
        return resolved[0] if resolved else None

    def get_mount_path_for_path(self, input_path: str):
        resolved = self.resolve_mount(input_path)
        return resolved[2] if resolved else None

    def resolve_absolute_path(self, input_path: str):
        resolved = self.resolve_mount(input_path)
        if resolved is None or not hasattr(resolved[0], "resolve_absolute_path"):
            return None
        return resolved[0].resolve_absolute_path(resolved[1])

    def init(self) -> None:
        """Each mount's init; one that fails keeps its error status, the composite is ready anyway."""
        self.status = "initializing"
        for fs in self._mounts.values():
            try:
                fs.init()
            except Exception:
                pass  # upstream console.warns and goes on
        self.status = "ready"

    def destroy(self) -> None:
        self.status = "destroying"
        errors = []
        for fs in self._mounts.values():
            try:
                fs.destroy()
            except Exception as exc:
                errors.append(exc)
        if errors:
            self.status = "error"
            raise ExceptionGroup("Some filesystems failed to destroy", errors)
        self.status = "destroyed"

    def get_info(self) -> dict:
        info = {"id": self.id, "name": self.name, "provider": self.provider, "status": self.status,
                "readOnly": self.readOnly,
                "metadata": {"mounts": {p: (fs.get_info() if hasattr(fs, "get_info") else None)
                                        for p, fs in self._mounts.items()}}}
        return {k: v for k, v in info.items() if v is not None}

    def get_instructions(self, opts: dict | None = None) -> str:
        lines = [f"- {path}: {display_name(fs)} {'(read-only)' if fs.readOnly else '(read-write)'}"
                 for path, fs in self._mounts.items()]
        return "Filesystem mount points:\n" + "\n".join(lines)


def display_name(fs) -> str:
    """`fs.displayName || fs.provider`."""
    return getattr(fs, "displayName", None) or fs.provider
