"""MountManager (upstream `sandbox/mount-manager.ts`): a sandbox's mount table and its pending mounts.

The Workspace adds its `mounts` as pending entries; the sandbox processes them after it starts:
each entry's onMount hook first (false: skipped, `{success}`: the hook handled it, nothing: the
sandbox's own mount), then the sandbox's mount function for a filesystem with a mount config.
An entry is a dict with the upstream's keys: filesystem, state, config, configHash, error.
"""
from __future__ import annotations

import hashlib
import json

from ..js.strings import to_base36


class MountToolNotFoundError(Exception):
    """A FUSE tool the mount needs is not installed (upstream `mounts/types.ts`)."""


class MountManager:
    def __init__(self, mount, logger=None):
        self._entries: dict[str, dict] = {}  # insertion-ordered, as a JS Map
        self._mount_fn = mount
        self._on_mount = None
        self._sandbox = None
        self._workspace = None
        self.logger = logger

    def set_context(self, sandbox, workspace) -> None:
        self._sandbox, self._workspace = sandbox, workspace

    def set_on_mount(self, hook) -> None:
        self._on_mount = hook

    @property
    def entries(self) -> dict:
        return self._entries

    def get(self, path: str):
        return self._entries.get(path)

    def has(self, path: str) -> bool:
        return path in self._entries

    def add(self, mounts: dict) -> None:
        for path, filesystem in mounts.items():
            self._entries[path] = {"filesystem": filesystem, "state": "pending"}

    def set(self, path: str, filesystem=None, state: str = "pending", config=None, **error) -> None:
        """Update an entry (created when a filesystem is given); `error=` only when passed, as upstream's
        `'error' in updates`."""
        existing = self._entries.get(path)
        if existing is not None:
            existing["state"] = state
            if config:
                existing["config"] = config
                existing["configHash"] = self.hash_config(config)
            if "error" in error:
                existing["error"] = error["error"]
        elif filesystem is not None:
            self._entries[path] = {"filesystem": filesystem, "state": state, "config": config,
                                   "configHash": self.hash_config(config) if config else None,
                                   "error": error.get("error")}

    def delete(self, path: str) -> bool:
        return self._entries.pop(path, None) is not None

    def clear(self) -> None:
        self._entries.clear()

    def process_pending(self) -> None:
        """Every pending entry, in order; a failure is kept on its entry, never raised."""
        for path, entry in self._live_items():
            if entry["state"] != "pending":
                continue
            filesystem = entry["filesystem"]
            get_config = getattr(filesystem, "get_mount_config", None)
            config = get_config() if get_config is not None else None
            if self._on_mount is not None:
                try:
                    result = self._on_mount({"filesystem": filesystem, "mountPath": path, "config": config,
                                             "sandbox": self._sandbox, "workspace": self._workspace})
                except Exception as exc:
                    entry["state"] = "error"
                    entry["error"] = f"Mount hook error: {_js_string_of_error(exc)}"
                    continue
                if result is False:
                    entry["state"] = "unsupported"
                    entry["error"] = "Skipped by onMount hook"
                    continue
                if isinstance(result, dict):  # the hook handled it
                    if result.get("success"):
                        entry["state"] = "mounted"
                        entry["config"] = config
                        entry["configHash"] = self.hash_config(config) if config else None
                    else:
                        entry["state"] = "error"
                        entry["error"] = result.get("error") or "Mount hook failed"
                    continue
            if not config:
                entry["state"] = "unsupported"
                entry["error"] = "Filesystem does not support mounting"
                continue
            entry["config"] = config
            entry["configHash"] = self.hash_config(config)
            entry["state"] = "mounting"
            try:
                result = self._mount_fn(filesystem, path)
            except MountToolNotFoundError as exc:
                entry["state"] = "unavailable"
                entry["error"] = _js_string_of_error(exc)
                continue
            except Exception as exc:
                entry["state"] = "error"
                entry["error"] = _js_string_of_error(exc)
                continue
            if result.get("success"):
                entry["state"] = "mounted"
            elif result.get("unavailable"):
                entry["state"] = "unavailable"
                entry["error"] = result.get("error") or "FUSE tool not installed"
            else:
                entry["state"] = "error"
                entry["error"] = result.get("error") or "Mount failed"

    def _live_items(self):
        """The entries as a JS Map's for...of visits them: in order, live, so an entry a mount adds
        meanwhile (mount('/data/') makes '/data') is visited too, one deleted before its turn is not,
        and one deleted and set again is visited again at its new place."""
        visited: dict[int, dict] = {}  # id -> entry, kept alive so that no id is reused
        while True:
            for path, entry in self._entries.items():
                if id(entry) not in visited:
                    break
            else:
                return
            visited[id(entry)] = entry
            yield path, entry

    # -- marker files ----------------------------------------------------------------------------

    @staticmethod
    def marker_filename(mount_path: str) -> str:
        """`mount-<base36 of |h|>`, h the 32-bit string hash ((h << 5) - h + char) over UTF-16 units."""
        h = 0
        units = mount_path.encode("utf-16-le", "surrogatepass")
        for i in range(0, len(units), 2):
            h = ((h << 5) - h + int.from_bytes(units[i:i + 2], "little")) & 0xFFFFFFFF
        if h >= 0x80000000:
            h -= 0x100000000
        return f"mount-{to_base36(abs(h))}"

    @staticmethod
    def parse_marker_content(content: str):
        """`path|configHash` split at the last `|`; None when either side is empty."""
        i = content.rfind("|")
        if i <= 0:
            return None
        path, config_hash = content[:i], content[i + 1:]
        return {"path": path, "configHash": config_hash} if path and config_hash else None

    def compute_config_hash(self, config: dict) -> str:
        return self.hash_config(config)

    @staticmethod
    def hash_config(config: dict) -> str:
        """sha256 of JSON.stringify with keys sorted at every depth, first 16 hex digits."""
        text = json.dumps(config, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _js_string_of_error(exc: BaseException) -> str:
    """String(err): `<name>: <message>`."""
    from ..errors import js_name
    message = getattr(exc, "message", None) or str(exc)
    return f"{js_name(exc) or 'Error'}: {message}" if message else (js_name(exc) or "Error")
