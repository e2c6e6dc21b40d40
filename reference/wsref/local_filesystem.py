"""LocalFilesystem: a folder on disk, with the upstream's containment rules and error texts.

Paths follow Node's path.posix (see nodepath); every check happens in the same order as in
@mastra/core 1.71.0, because the order decides which error a bad path gets.
"""
from __future__ import annotations

import base64
import errno
import os
import random
import shutil
import stat as stat_mod
import string
from dataclasses import dataclass, field
from datetime import datetime, timezone

from . import nodepath
from .errors import (DirectoryNotEmptyError, DirectoryNotFoundError, FileExistsError_,
                     FileNotFoundError_, IsDirectoryError, NodeSystemError, NotDirectoryError,
                     PermissionError_, StaleFileError, WorkspaceReadOnlyError)
from .mime import mime_type

OUTSIDE_HINT_GENERIC = ('access (path is outside the workspace; use a path relative to the '
                        'workspace root, without a leading "/")')


def expand_tilde(p: str) -> str:
    home = os.environ.get("HOME") or os.path.expanduser("~")
    if p == "~":
        return home
    if p.startswith("~/") or p.startswith("~\\"):
        return nodepath.join(home, p[2:])
    return p


def resolve_to_base_path(base: str, file_path: str) -> str:
    expanded = expand_tilde(file_path)
    if nodepath.is_absolute(expanded):
        return nodepath.normalize(expanded)
    return nodepath.resolve(base, expanded)


def _errcode(exc: OSError) -> str:
    return errno.errorcode.get(exc.errno or 0, "EIO")


def js_date(ns: int) -> datetime:
    """A stat time as Node's Date holds it: whole milliseconds, rounded."""
    ms = (ns + 500_000) // 1_000_000
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


def iso(dt: datetime) -> str:
    """Date.prototype.toISOString()."""
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


@dataclass
class FileStat:
    name: str
    path: str
    type: str
    size: int
    createdAt: datetime
    modifiedAt: datetime
    mimeType: str | None = None


@dataclass
class LocalFilesystem:
    basePath: str
    contained: bool = True
    readOnly: bool | None = None
    allowedPaths: list[str] = field(default_factory=list)
    id: str | None = None
    instructions: str | None = None

    name = "LocalFilesystem"
    provider = "local"

    def __post_init__(self):
        self.basePath = nodepath.resolve(expand_tilde(self.basePath))
        self.allowedPaths = [resolve_to_base_path(self.basePath, p) for p in self.allowedPaths]
        self.id = self.id or "local-fs-" + "".join(random.choices(string.ascii_lowercase + string.digits, k=12))
        self.status = "pending"
        self.error: str | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def init(self) -> None:
        if self.status == "ready":
            return
        self.status = "initializing"
        os.makedirs(self.basePath, exist_ok=True)
        self.status = "ready"

    def ensure_ready(self) -> None:
        if self.status != "ready":
            self.init()

    def destroy(self) -> None:
        self.status = "destroyed"  # LocalFilesystem never deletes files on destroy

    def get_info(self) -> dict:
        metadata = {"basePath": self.basePath, "contained": self.contained}
        if self.allowedPaths:
            metadata["allowedPaths"] = list(self.allowedPaths)
        return {"id": self.id, "name": self.name, "provider": self.provider, "readOnly": self.readOnly,
                "status": self.status, "error": self.error, "metadata": metadata}

    def get_instructions(self) -> str:
        if self.instructions is not None:
            return self.instructions
        parts = [f'Local filesystem at "{self.basePath}". Relative paths resolve from this directory.']
        if not self.contained:
            parts.append("Containment is disabled, so any path on the host filesystem is accessible.")
        elif self.allowedPaths:
            parts.append("File access is restricted to this directory and the following allowed paths: "
                         + ", ".join(self.allowedPaths) + ".")
        else:
            parts.append("File access is restricted to this directory.")
        return " ".join(parts)

    # -- containment ------------------------------------------------------------------------

    @staticmethod
    def _within(absolute: str, root: str) -> bool:
        rel = nodepath.relative(root, absolute)
        # Upstream checks startsWith('..'), so an entry named "..x" counts as outside.
        return not rel.startswith("..") and not nodepath.is_absolute(rel)

    @staticmethod
    def _real_for_containment(absolute: str) -> str | None:
        """realpath of the nearest existing ancestor, with the rest re-attached."""
        current = absolute
        while True:
            try:
                real = os.path.realpath(current, strict=True)
                if current == absolute:
                    return real
                return nodepath.join(real, nodepath.relative(current, absolute))
            except FileNotFoundError:
                pass
            except OSError:
                return None
            parent = nodepath.dirname(current)
            if parent == current:
                return None
            current = parent

    def _within_any_root(self, absolute: str) -> bool:
        roots = [self.basePath, *self.allowedPaths]
        if any(self._within(absolute, r) for r in roots):
            return True
        real = self._real_for_containment(absolute)
        if real is None:
            return False
        for root in roots:
            real_root = self._real_for_containment(root)
            if real_root and self._within(real, real_root):
                return True
        return False

    def _hint(self, input_path: str) -> str:
        if not nodepath.is_absolute(input_path):
            return "access"
        stripped = input_path.lstrip("/\\")
        if not stripped:
            return "access"
        first = stripped.replace("\\", "/").split("/", 1)[0]
        if first and first not in (".", ".."):
            try:
                os.path.realpath(nodepath.join(self.basePath, first), strict=True)
                return f'access (path is outside the workspace; use a relative path like "{stripped}")'
            except OSError:
                pass
        return OUTSIDE_HINT_GENERIC

    def resolve_path(self, input_path: str) -> str:
        absolute = resolve_to_base_path(self.basePath, input_path)
        if self.contained and not self._within_any_root(absolute):
            raise PermissionError_(input_path, self._hint(input_path))
        return absolute

    def resolve_absolute_path(self, input_path: str) -> str | None:
        try:
            return self.resolve_path(input_path)
        except PermissionError_:
            return None

    def _assert_contained(self, absolute: str) -> None:
        """The second check: the target's realpath must sit under a root's realpath."""
        if not self.contained:
            return
        if any(self._within(absolute, r) for r in self.allowedPaths):
            return
        try:
            target = os.path.realpath(absolute, strict=True)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "realpath", absolute) from None
        real_roots = []
        for root in [self.basePath, *self.allowedPaths]:
            try:
                real_roots.append(os.path.realpath(root, strict=True))
            except FileNotFoundError:
                continue
        if not any(target == r or target.startswith(r + "/") for r in real_roots):
            raise PermissionError_(absolute, "access")

    def _checked(self, input_path: str) -> str:
        self.ensure_ready()
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        return absolute

    def _assert_writable(self, operation: str) -> None:
        if self.readOnly:
            raise WorkspaceReadOnlyError(operation)

    def to_relative(self, absolute: str) -> str:
        return nodepath.relative(self.basePath, absolute)

    # -- reading ----------------------------------------------------------------------------

    def read_file(self, input_path: str, encoding: str | None = None) -> str | bytes:
        absolute = self._checked(input_path)
        try:
            st = os.stat(absolute)
        except FileNotFoundError:
            raise FileNotFoundError_(input_path) from None
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "stat", absolute) from None
        if os.path.isdir(absolute):
            raise IsDirectoryError(input_path)
        try:
            with open(absolute, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            raise FileNotFoundError_(input_path) from None
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "open", absolute) from None
        del st
        return decode(data, encoding) if encoding else data

    def stat(self, input_path: str) -> FileStat:
        absolute = self._checked(input_path)
        try:
            st = os.stat(absolute)
        except FileNotFoundError:
            raise FileNotFoundError_(input_path) from None
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "stat", absolute) from None
        is_dir = os.path.isdir(absolute)
        is_file = os.path.isfile(absolute)
        return FileStat(
            name=nodepath.basename(absolute),
            path=self.to_relative(absolute),
            type="directory" if is_dir else "file",
            size=st.st_size,
            createdAt=js_date(_birth_ns(st)),
            modifiedAt=js_date(st.st_mtime_ns),
            mimeType=mime_type(absolute) if is_file else None,
        )

    def exists(self, input_path: str) -> bool:
        absolute = self._checked(input_path)
        return os.access(absolute, os.F_OK)

    def realpath(self, input_path: str) -> str:
        absolute = self._checked(input_path)
        try:
            return self.to_relative(os.path.realpath(absolute, strict=True))
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "realpath", absolute) from None

    def readdir(self, input_path: str, recursive: bool = False, extension=None, maxDepth: int | None = None) -> list[dict]:
        absolute = self._checked(input_path)
        try:
            if not os.path.isdir(absolute):
                if not os.path.exists(absolute):  # a dangling link is a missing directory
                    raise FileNotFoundError
                raise NotDirectoryError(input_path)
            names = sorted(os.listdir(absolute), key=os.fsencode)  # libuv's scandir sorts by name bytes
        except FileNotFoundError:
            raise DirectoryNotFoundError(input_path) from None
        result = []
        exts = None if extension is None else (extension if isinstance(extension, list) else [extension])
        for name in names:
            entry_path = nodepath.join(absolute, name)
            is_link = os.path.islink(entry_path)
            if exts is not None and os.path.isfile(entry_path) and not is_link:
                ext = nodepath.extname(name)
                if not any(e == ext or e == ext[1:] for e in exts):
                    continue
            target = None
            if is_link:
                try:
                    target = os.readlink(entry_path)
                    kind = "directory" if os.path.isdir(entry_path) else "file"
                except OSError:
                    kind = "file"
            else:
                kind = "directory" if os.path.isdir(entry_path) else "file"
            entry = {"name": name, "type": kind}
            if is_link:
                entry["isSymlink"] = True
                entry["symlinkTarget"] = target
            if kind == "file" and not is_link:
                try:
                    entry["size"] = os.stat(entry_path).st_size
                except OSError:
                    pass
            result.append(entry)
            if recursive and kind == "directory":
                depth = 100 if maxDepth is None else maxDepth
                if depth > 0:
                    for sub in self.readdir(self.to_relative(entry_path), True, extension, depth - 1):
                        result.append({**sub, "name": f"{name}/{sub['name']}"})
        return result

    # -- writing ----------------------------------------------------------------------------

    def write_file(self, input_path: str, content, recursive: bool | None = None,
                   overwrite: bool | None = None, expectedMtime: datetime | None = None) -> None:
        self.ensure_ready()
        self._assert_writable("writeFile")
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        parent = nodepath.dirname(absolute)
        if recursive is False:
            if not os.path.exists(parent):
                raise DirectoryNotFoundError(nodepath.dirname(input_path))
            if not os.path.isdir(parent):
                raise NotDirectoryError(nodepath.dirname(input_path))
        else:
            _mkdirs(parent)
        if expectedMtime is not None:
            try:
                actual = js_date(os.stat(absolute).st_mtime_ns)
                if actual != expectedMtime:
                    raise StaleFileError(input_path, f"File was modified externally: {input_path} "
                                         f"(expected mtime {iso(expectedMtime)}, actual {iso(actual)})")
            except FileNotFoundError:
                pass
        data = content if isinstance(content, (bytes, bytearray)) else js_utf8(content)
        flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if overwrite is False else os.O_TRUNC)
        try:
            fd = os.open(absolute, flags, 0o666)
        except FileExistsError:
            if overwrite is False:
                raise FileExistsError_(input_path) from None
            raise
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "open", absolute) from None
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)

    def append_file(self, input_path: str, content) -> None:
        self.ensure_ready()
        self._assert_writable("appendFile")
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        _mkdirs(nodepath.dirname(absolute))
        data = content if isinstance(content, (bytes, bytearray)) else js_utf8(content)
        with open(absolute, "ab") as fh:
            fh.write(data)

    def delete_file(self, input_path: str, force: bool = False) -> None:
        self.ensure_ready()
        self._assert_writable("deleteFile")
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        try:
            if os.path.isdir(absolute):
                raise IsDirectoryError(input_path)
            os.stat(absolute)
            os.unlink(absolute)
        except FileNotFoundError:
            if not force:
                raise FileNotFoundError_(input_path) from None

    def mkdir(self, input_path: str, recursive: bool | None = None) -> None:
        self.ensure_ready()
        self._assert_writable("mkdir")
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        try:
            if recursive is False:
                try:
                    os.mkdir(absolute, 0o777)
                except OSError as exc:
                    raise NodeSystemError(_errcode(exc), "mkdir", absolute) from None
            else:
                _mkdirs(absolute)
        except NodeSystemError as exc:
            if exc.code == "EEXIST":
                # The upstream stats the path (following links): a directory is fine, a file is not,
                # and a stat failure (a dangling link) escapes as Node's own error.
                try:
                    is_dir = stat_mod.S_ISDIR(os.stat(absolute).st_mode)
                except OSError as err:
                    raise NodeSystemError(_errcode(err), "stat", absolute) from None
                if not is_dir:
                    raise FileExistsError_(input_path) from None
            elif exc.code == "ENOENT":
                raise DirectoryNotFoundError(nodepath.dirname(input_path)) from None
            else:
                raise

    def rmdir(self, input_path: str, recursive: bool = False, force: bool = False) -> None:
        self.ensure_ready()
        self._assert_writable("rmdir")
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        if not os.path.exists(absolute):
            if not force:
                raise DirectoryNotFoundError(input_path)
            return
        if not os.path.isdir(absolute):
            raise NotDirectoryError(input_path)
        if recursive:
            shutil.rmtree(absolute) if not os.path.islink(absolute) else os.unlink(absolute)
        else:
            if os.listdir(absolute):  # follows a link to the directory it names
                raise DirectoryNotEmptyError(input_path)
            try:
                os.rmdir(absolute)  # a link to an empty directory: ENOTDIR, as Node's rmdir gives it
            except OSError as exc:
                raise NodeSystemError(_errcode(exc), "rmdir", absolute) from None

    def copy_file(self, src: str, dest: str, overwrite: bool | None = None, recursive: bool = False) -> None:
        self.ensure_ready()
        self._assert_writable("copyFile")
        src_abs, dest_abs = self.resolve_path(src), self.resolve_path(dest)
        self._assert_contained(src_abs)
        self._assert_contained(dest_abs)
        if not os.path.exists(src_abs):
            raise FileNotFoundError_(src)
        if os.path.isdir(src_abs):
            if not recursive:
                raise IsDirectoryError(src)
            shutil.copytree(src_abs, dest_abs, dirs_exist_ok=True)
            return
        _mkdirs(nodepath.dirname(dest_abs))
        if overwrite is False and os.path.lexists(dest_abs):
            raise FileExistsError_(dest)
        shutil.copyfile(src_abs, dest_abs)

    def move_file(self, src: str, dest: str, overwrite: bool | None = None) -> None:
        self.ensure_ready()
        self._assert_writable("moveFile")
        src_abs, dest_abs = self.resolve_path(src), self.resolve_path(dest)
        self._assert_contained(src_abs)
        self._assert_contained(dest_abs)
        _mkdirs(nodepath.dirname(dest_abs))
        if overwrite is False:
            self.copy_file(src, dest, overwrite=False)
            shutil.rmtree(src_abs, ignore_errors=True) if os.path.isdir(src_abs) else os.unlink(src_abs)
            return
        try:
            os.rename(src_abs, dest_abs)
        except FileNotFoundError:
            raise FileNotFoundError_(src) from None


def js_utf8(text: str) -> bytes:
    """Buffer.from(text, 'utf-8'): the string as JavaScript's UTF-16 sees it, so a surrogate pair
    is one character and a lone surrogate becomes U+FFFD (EF BF BD)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").encode("utf-8")


def decode(data: bytes, encoding: str) -> str:
    """Buffer.toString(encoding) for the encodings read_file accepts."""
    if encoding in ("utf-8", "utf8"):
        return data.decode("utf-8", "replace")
    if encoding == "base64":
        return base64.b64encode(data).decode("ascii")
    if encoding == "hex":
        return data.hex()
    if encoding in ("binary", "latin1"):
        return data.decode("latin-1")
    raise ValueError(f"unsupported encoding {encoding!r}")


def _mkdirs(path: str) -> None:
    """fs.mkdir(path, {recursive: true}) as Node's MKDirpAsync does it, errors included.

    An existing final path must be a directory (EEXIST otherwise; a dangling link gives the stat's
    ENOENT); an existing intermediate that is not a directory gives ENOTDIR naming that intermediate.
    """
    stack = [path]
    while stack:
        current = stack.pop()
        try:
            os.mkdir(current, 0o777)
            continue
        except FileNotFoundError:
            parent = nodepath.dirname(current)
            if parent != current:
                stack.append(current)
                stack.append(parent)
                continue
            if not stack:
                raise NodeSystemError("EEXIST", "mkdir", current) from None
            continue
        except (PermissionError, NotADirectoryError) as exc:
            raise NodeSystemError(_errcode(exc), "mkdir", current) from None
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.ENOSPC, errno.ENOTDIR, errno.EPERM):
                raise NodeSystemError(_errcode(exc), "mkdir", current) from None
            mkdir_error = _errcode(exc)
        try:
            st_err, is_dir = None, stat_mod.S_ISDIR(os.stat(current).st_mode)
        except OSError as exc:
            st_err, is_dir = _errcode(exc), False
        if mkdir_error == "EEXIST" and stack:
            if st_err is None and is_dir:
                continue
            raise NodeSystemError("ENOTDIR", "mkdir", current)
        if st_err is not None:
            raise NodeSystemError(st_err, "mkdir", current)
        if not is_dir:
            raise NodeSystemError("EEXIST", "mkdir", current)


def _birth_ns(st: os.stat_result) -> int:
    birth = getattr(st, "st_birthtime", None)
    return int(birth * 1e9) if birth else st.st_ctime_ns


