"""CompositeFilesystem (upstream `filesystem/composite-filesystem.ts`): a Workspace's `mounts`.

Ported: the mount table (normalised paths, no nested mounts, read-only when every mount is),
routing a path to its mount, the lifecycle over the mounts, getInfo and the instructions. Not
ported: the file operations routed to the mounts. The reference's tools read LocalFilesystem's own
helpers (contained readers, path resolution), so they run on a LocalFilesystem only; the cases on
mounts (capability sandbox_mounts) look at the sandbox's side: hooks, links, instructions.
"""
from __future__ import annotations

import time

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

    def get_filesystem_for_path(self, path: str):
        resolved = self.resolve_mount(path)
        return resolved[0] if resolved else None

    def get_mount_path_for_path(self, path: str):
        resolved = self.resolve_mount(path)
        return resolved[2] if resolved else None

    def resolve_absolute_path(self, path: str):
        resolved = self.resolve_mount(path)
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
