"""LocalSkillSource (upstream `skills/local-skill-source.ts`): read-only skills from a local folder."""
from __future__ import annotations

import os


class LocalSkillSource:
    """skills/local-skill-source.ts: read-only skills from a local folder (default: the process's cwd).

    Paths resolve against basePath with no containment; an absolute path is used as it is.
    """

    def __init__(self, basePath: str | None = None):

        self.base = os.path.abspath(basePath if basePath is not None else os.getcwd())

    def _abs(self, path: str) -> str:

        return path if os.path.isabs(path) else os.path.normpath(os.path.join(self.base, path))

    def exists(self, path: str) -> bool:

        return os.path.exists(self._abs(path))

    def stat(self, path: str) -> dict:
        """fs-utils' fsStat: what maybeRefresh's staleness check reads (type, modifiedAt)."""
        from ..errors import FileNotFoundError_
        from ..filesystem.fs_utils import mime_type
        from ..filesystem.local_filesystem import _birth_ns, js_date
        absolute = self._abs(path)
        try:
            st = os.stat(absolute)
        except FileNotFoundError:
            raise FileNotFoundError_(path) from None
        is_dir = os.path.isdir(absolute)
        return {"name": os.path.basename(absolute), "type": "directory" if is_dir else "file", "size": st.st_size,
                "createdAt": js_date(_birth_ns(st)), "modifiedAt": js_date(st.st_mtime_ns),
                "mimeType": None if is_dir else mime_type(absolute)}

    def read_file(self, path: str, encoding: str | None = None):
        with open(self._abs(path), "rb") as fh:
            data = fh.read()
        return data.decode("utf-8", "replace") if encoding else data

    def readdir(self, path: str) -> list[dict]:

        directory = self._abs(path)
        out = []
        for name in sorted(os.listdir(directory), key=os.fsencode):
            full = os.path.join(directory, name)
            link = os.path.islink(full)
            kind = "directory" if os.path.isdir(full) else "file"
            out.append({"name": name, "type": kind, "isSymlink": True if link else None})
        return out

    def realpath(self, path: str) -> str:

        return os.path.realpath(self._abs(path), strict=True)
