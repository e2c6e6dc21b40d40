"""LocalFilesystem (upstream `filesystem/local-filesystem.ts`): a folder on disk, with the upstream's containment rules and error texts.

Paths follow Node's path.posix (see nodepath); every check happens in the same order as in
@mastra/core 1.71.0, because the order decides which error a bad path gets.
"""
from __future__ import annotations

import base64
import errno
import math
import os
import shutil
import stat as stat_mod
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from ..errors import (
    js_name,
    DirectoryNotEmptyError,
    DirectoryNotFoundError,
    FileExistsError_,
    FileNotFoundError_,
    IsDirectoryError,
    JsTypeError,
    NodeSystemError,
    NotDirectoryError,
    PermissionError_,
    StaleFileError,
    WorkspaceReadOnlyError,
)
from ..js import node_path as nodepath
from ..js.node_args import NodeArgError, from_system, fs_path, inspect_string
from ..js.strings import to_well_formed
from ..js.strings import js_length, time_random_id
from .fs_utils import expand_tilde, is_text_file, mime_type, normalize_text_extension, resolve_to_base_path

OUTSIDE_HINT_GENERIC = ('access (path is outside the workspace; use a path relative to the '
                        'workspace root, without a leading "/")')



def _errcode(exc: OSError) -> str:
    return errno.errorcode.get(exc.errno or 0, "EIO")


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def js_date(ns: int) -> datetime:
    """A stat time as Node's Date holds it: Node computes mtimeMs = sec * 1e3 + nsec / 1e6 in a
    double (so .000499999 s is already .5 ms) and the Date is Math.round of that (half up)."""
    sec, nsec = divmod(ns, 1_000_000_000)
    ms_float = sec * 1e3 + nsec / 1e6
    whole = math.floor(ms_float)
    ms = whole + 1 if ms_float - whole >= 0.5 else whole
    return _EPOCH + timedelta(milliseconds=ms)


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
    textExtensions: list[str] | None = None  # MastraFilesystemOptions: extra extensions grep reads

    name = "LocalFilesystem"
    provider = "local"
    logger = None  # MastraBase's logger, set by __setLogger (the workspace passes its own on)

    def __post_init__(self):
        self.basePath = nodepath.resolve(expand_tilde(self.basePath))
        self.allowedPaths = [resolve_to_base_path(self.basePath, p) for p in self.allowedPaths]
        self.id = self.id or self._generate_id()
        self._text_extensions = frozenset(normalize_text_extension(e) for e in self.textExtensions or [])
        self.status = "pending"
        self.error: str | None = None

    @staticmethod
    def _generate_id() -> str:
        """`local-fs-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`."""
        return time_random_id("local-fs")

    def set_logger(self, logger) -> None:
        """__setLogger: the logger each operation logs its debug line to."""
        self.logger = logger

    def _debug(self, message: str, **data) -> None:
        """this.logger.debug(message, {...}): an undefined (None) field is left out, as JSON shows it."""
        if self.logger is not None:
            self.logger.debug(message, {k: v for k, v in data.items() if v is not None})

    def set_allowed_paths(self, paths_or_updater) -> None:
        """setAllowedPaths: a list, or an updater given the current (resolved) list; stored resolved."""
        new = paths_or_updater(list(self.allowedPaths)) if callable(paths_or_updater) else paths_or_updater
        self.allowedPaths = [resolve_to_base_path(self.basePath, p) for p in new]

    def is_text_file(self, filename: str) -> bool:
        """MastraFilesystem.isTextFile: the built-in set plus the configured textExtensions."""
        return is_text_file(filename, self._text_extensions)

    # -- lifecycle --------------------------------------------------------------------------

    def init(self) -> None:
        """MastraFilesystem._init(): the provider hook wrapped in status tracking."""
        if self.status == "ready":
            return
        self.status = "initializing"
        self.error = None
        try:
            self.init_hook()
        except Exception as exc:
            self.status = "error"
            self.error = getattr(exc, "message", None) or str(exc)
            if self.logger is not None:  # the error as a logger's data shows an Error: name, message, code
                self.logger.error("Failed to initialize filesystem", {
                    "error": {"name": js_name(exc), "message": self.error, "code": getattr(exc, "code", None)},
                    "id": self.id})
            raise
        self.status = "ready"

    def init_hook(self) -> None:
        """LocalFilesystem.init(), the provider's own hook: create basePath; status is not touched."""
        self._debug("Initializing filesystem", basePath=self.basePath)
        _mkdirs(self.basePath)
        self._debug("Filesystem initialized", basePath=self.basePath)

    def ensure_ready(self) -> None:
        if self.status != "ready":
            self.init()  # a failing init raises; nothing else leaves the status short of ready here

    def destroy(self) -> None:
        """MastraFilesystem._destroy(): status tracking around the (no-op) provider hook."""
        if self.status == "destroyed":
            return
        self.status = "destroying" if self.status != "pending" else self.status
        self.destroy_hook()
        self.status = "destroyed"

    def destroy_hook(self) -> None:
        """LocalFilesystem.destroy(): nothing; the files stay on disk and status is not touched."""

    def get_mount_config(self) -> dict:
        """What a sandbox mounts: LocalSandbox symlinks to basePath."""
        return {"type": "local", "basePath": self.basePath}

    def get_info(self) -> dict:
        """FilesystemInfo; an undefined property (readOnly, error) is left out."""
        metadata = {"basePath": self.basePath, "contained": self.contained}
        if self.allowedPaths:
            metadata["allowedPaths"] = list(self.allowedPaths)
        info = {"id": self.id, "name": self.name, "provider": self.provider, "readOnly": self.readOnly,
                "status": self.status, "error": self.error, "metadata": metadata}
        return {k: v for k, v in info.items() if v is not None}

    def get_instructions(self, opts: dict | None = None) -> str:
        """resolveInstructions: a string replaces the default; a function gets {defaultInstructions,
        requestContext} (the request context passed to getInstructions, if any)."""
        if isinstance(self.instructions, str):
            return self.instructions
        default = self._default_instructions()
        if callable(self.instructions):
            return self.instructions({"defaultInstructions": default,
                                      "requestContext": (opts or {}).get("requestContext")})
        return default

    def _default_instructions(self) -> str:
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
                real = os.path.realpath(fs_path(current), strict=True)
                if current == absolute:
                    return real
                return nodepath.join(real, nodepath.relative(current, absolute))
            except FileNotFoundError:
                pass
            except (OSError, NodeArgError):
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
                os.path.realpath(fs_path(nodepath.join(self.basePath, first)), strict=True)
                return f'access (path is outside the workspace; use a relative path like "{stripped}")'
            except (OSError, NodeArgError):  # upstream's catch-all
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
            target = os.path.realpath(fs_path(absolute), strict=True)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "realpath", absolute) from None
        real_roots = []
        for root in [self.basePath, *self.allowedPaths]:
            try:
                real_roots.append(os.path.realpath(fs_path(root), strict=True))
            except FileNotFoundError:
                continue
            except OSError as exc:  # a root under a file, a looping root: Node's error, not a skip
                raise NodeSystemError(_errcode(exc), "realpath", root) from None
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
        # toRelativePath: backslashes become slashes, also in a Linux name that holds one literally
        return nodepath.relative(self.basePath, absolute).replace("\\", "/")

    # -- reading ----------------------------------------------------------------------------

    def read_file(self, input_path: str, encoding: str | None = None) -> str | bytes:
        with self.open_read(input_path, encoding) as fh:
            data = fh.read()
        return decode(data, encoding) if encoding else data

    def open_read(self, input_path: str, encoding: str | None = None):
        """The file open for binary reading, after read_file's debug line ('Reading file' with the
        encoding the caller will decode with), its checks and its errors: read_file reads it whole;
        the read_file tool takes a line window of a large file without holding all of it (and logs
        the same line the upstream's readFile of the whole file logs)."""
        self._debug("Reading file", path=input_path, encoding=encoding)
        absolute = self._checked(input_path)
        try:
            st = os.stat(fs_path(absolute))
        except FileNotFoundError:
            raise FileNotFoundError_(input_path) from None
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "stat", absolute) from None
        if stat_mod.S_ISDIR(st.st_mode):
            raise IsDirectoryError(input_path)
        try:
            return open(fs_path(absolute), "rb")
        except FileNotFoundError:
            raise FileNotFoundError_(input_path) from None
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "open", absolute) from None

    def contained_reader(self) -> "ContainedReader":
        """For grep, which reads every text file of the directories it walked: read_file's bytes
        with containment decided once per directory (see ContainedReader)."""
        return ContainedReader(self)

    def stat(self, input_path: str) -> FileStat:
        absolute = self._checked(input_path)
        try:
            st = os.stat(fs_path(absolute))
        except FileNotFoundError:
            raise FileNotFoundError_(input_path) from None
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "stat", absolute) from None
        is_dir = stat_mod.S_ISDIR(st.st_mode)
        is_file = stat_mod.S_ISREG(st.st_mode)
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
        try:  # fsExists: fs.access in a catch-all
            return os.access(fs_path(absolute), os.F_OK)
        except NodeArgError:
            return False

    def realpath(self, input_path: str) -> str:
        absolute = self._checked(input_path)
        try:
            return self.to_relative(from_system(os.path.realpath(fs_path(absolute), strict=True)))
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "realpath", absolute) from None

    def readdir(self, input_path: str, recursive: bool | None = None, extension=None, maxDepth: int | None = None,
                *, sizes: bool = True) -> list[dict]:
        """sizes=False (keyword only, so no spec call can pass it): the files' entries without
        `size`, which costs an lstat each; grep's walk, which never looks at it, lists so."""
        self._debug("Reading directory", path=input_path, recursive=recursive)
        absolute = self._checked(input_path)
        try:
            try:
                is_dir = stat_mod.S_ISDIR(os.stat(fs_path(absolute)).st_mode)
            except OSError as exc:  # a dangling link is a missing directory
                if exc.errno == errno.ENOENT:
                    raise FileNotFoundError from None
                raise NodeSystemError(_errcode(exc), "stat", absolute) from None
            if not is_dir:
                raise NotDirectoryError(input_path)
            with os.scandir(fs_path(absolute)) as listing:
                # libuv's scandir sorts by name bytes; the entries' types come with the listing
                entries = sorted(listing, key=lambda e: os.fsencode(e.name))
        except FileNotFoundError:
            raise DirectoryNotFoundError(input_path) from None
        result = []
        # `if (options?.extension)`: JavaScript truthiness, so '' filters nothing while [] drops every file
        falsy = extension is None or extension is False or extension == "" or extension == 0
        exts = None if falsy else (extension if isinstance(extension, list) else [extension])
        prefix = absolute if absolute.endswith("/") else absolute + "/"  # nodepath.join of a plain name
        for item in entries:
            name = from_system(item.name)  # an undecodable byte is U+FFFD, as Node reads the name
            entry_path = prefix + name
            is_link = item.is_symlink()
            if exts is not None and not is_link and item.is_file(follow_symlinks=False):
                ext = nodepath.extname(name)
                if not any(e == ext or e == ext[1:] for e in exts):
                    continue
            target = None
            if is_link:
                try:
                    target = from_system(os.readlink(fs_path(entry_path)))
                    kind = "directory" if os.path.isdir(fs_path(entry_path)) else "file"
                except OSError:
                    kind = "file"
            else:
                kind = "directory" if item.is_dir(follow_symlinks=False) else "file"
            entry = {"name": name, "type": kind}
            if is_link:
                entry["isSymlink"] = True
                entry["symlinkTarget"] = target
            if kind == "file" and not is_link and sizes:
                try:  # by the name as Node decoded it: a name with an undecodable byte has no size
                    entry["size"] = os.stat(fs_path(entry_path)).st_size
                except OSError:
                    pass
            result.append(entry)
            if recursive and kind == "directory":
                depth = 100 if maxDepth is None else maxDepth
                if depth > 0:
                    try:
                        subs = self.readdir(self.to_relative(entry_path), True, extension, depth - 1, sizes=sizes)
                    except Exception as exc:
                        # upstream recurses inside its try: a nested ENOENT (a name with a backslash,
                        # which toRelativePath turns into a slash) is this call's DirectoryNotFoundError
                        if getattr(exc, "code", None) == "ENOENT":
                            raise DirectoryNotFoundError(input_path) from None
                        raise
                    for sub in subs:
                        result.append({**sub, "name": f"{name}/{sub['name']}"})
        return result

    # -- writing ----------------------------------------------------------------------------

    def write_file(self, input_path: str, content, recursive: bool | None = None,
                   overwrite: bool | None = None, expectedMtime: datetime | None = None) -> None:
        self._debug("Writing file", path=input_path, size=_content_length(content), recursive=recursive)
        self.ensure_ready()
        self._assert_writable("writeFile")
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        parent = nodepath.dirname(absolute)
        if recursive is False:
            try:
                parent_is_dir = stat_mod.S_ISDIR(os.stat(fs_path(parent)).st_mode)
            except FileNotFoundError:
                raise DirectoryNotFoundError(nodepath.dirname(input_path)) from None
            except OSError as exc:
                raise NodeSystemError(_errcode(exc), "stat", parent) from None
            if not parent_is_dir:
                raise NotDirectoryError(nodepath.dirname(input_path))
        else:
            _mkdirs(parent)
        if expectedMtime is not None:
            # Optimistic concurrency: compare with the file's mtime as a Date (whole milliseconds).
            try:
                actual = js_date(os.stat(fs_path(absolute)).st_mtime_ns)
            except FileNotFoundError:
                actual = None  # the file does not exist yet: no conflict possible
            except OSError as exc:
                raise NodeSystemError(_errcode(exc), "stat", absolute) from None
            if actual is not None and actual != expectedMtime:
                raise StaleFileError(input_path, f"File was modified externally: {input_path} "
                                     f"(expected mtime {iso(expectedMtime)}, actual {iso(actual)})",
                                     expectedMtime, actual)
        data = content if isinstance(content, (bytes, bytearray)) else js_utf8(content)
        flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if overwrite is False else os.O_TRUNC)
        try:
            fd = os.open(fs_path(absolute), flags, 0o666)
        except FileExistsError:
            if overwrite is False:
                raise FileExistsError_(input_path) from None
            raise
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "open", absolute) from None
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)

    def append_file(self, input_path: str, content) -> None:
        self._debug("Appending to file", path=input_path, size=_content_length(content))
        self.ensure_ready()
        self._assert_writable("appendFile")
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        _mkdirs(nodepath.dirname(absolute))
        data = content if isinstance(content, (bytes, bytearray)) else js_utf8(content)
        try:
            fd = os.open(fs_path(absolute), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "open", absolute) from None
        with os.fdopen(fd, "ab") as fh:
            fh.write(data)

    def delete_file(self, input_path: str, force: bool | None = None) -> None:
        self._debug("Deleting file", path=input_path, force=force)
        self.ensure_ready()
        self._assert_writable("deleteFile")
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        try:
            if stat_mod.S_ISDIR(os.stat(fs_path(absolute)).st_mode):
                raise IsDirectoryError(input_path)
            os.unlink(fs_path(absolute))
        except FileNotFoundError:
            if not force:
                raise FileNotFoundError_(input_path) from None

    def mkdir(self, input_path: str, recursive: bool | None = None) -> None:
        self._debug("Creating directory", path=input_path, recursive=recursive)
        self.ensure_ready()
        self._assert_writable("mkdir")
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        try:
            if recursive is False:
                try:
                    os.mkdir(fs_path(absolute), 0o777)
                except OSError as exc:
                    raise NodeSystemError(_errcode(exc), "mkdir", absolute) from None
            else:
                _mkdirs(absolute)
        except NodeSystemError as exc:
            if exc.code == "EEXIST":
                # The upstream stats the path (following links): a directory is fine, a file is not,
                # and a stat failure (a dangling link) escapes as Node's own error.
                try:
                    is_dir = stat_mod.S_ISDIR(os.stat(fs_path(absolute)).st_mode)
                except OSError as err:
                    raise NodeSystemError(_errcode(err), "stat", absolute) from None
                if not is_dir:
                    raise FileExistsError_(input_path) from None
            elif exc.code == "ENOENT":
                raise DirectoryNotFoundError(nodepath.dirname(input_path)) from None
            else:
                raise

    def rmdir(self, input_path: str, recursive: bool | None = None, force: bool | None = None) -> None:
        self._debug("Removing directory", path=input_path, recursive=recursive, force=force)
        self.ensure_ready()
        self._assert_writable("rmdir")
        absolute = self.resolve_path(input_path)
        self._assert_contained(absolute)
        native = fs_path(absolute)
        if not os.path.exists(native):
            if not force:
                raise DirectoryNotFoundError(input_path)
            return
        if not os.path.isdir(native):
            raise NotDirectoryError(input_path)
        if recursive:
            shutil.rmtree(native) if not os.path.islink(native) else os.unlink(native)
        else:
            if os.listdir(native):  # follows a link to the directory it names
                raise DirectoryNotEmptyError(input_path)
            try:
                os.rmdir(native)  # a link to an empty directory: ENOTDIR, as Node's rmdir gives it
            except OSError as exc:
                raise NodeSystemError(_errcode(exc), "rmdir", absolute) from None

    def copy_file(self, src: str, dest: str, overwrite: bool | None = None, recursive: bool | None = None) -> None:
        self._debug("Copying file", src=src, dest=dest, recursive=recursive)
        self.ensure_ready()
        self._assert_writable("copyFile")
        src_abs, dest_abs = self.resolve_path(src), self.resolve_path(dest)
        self._assert_contained(src_abs)
        self._assert_contained(dest_abs)
        try:
            try:
                is_dir = stat_mod.S_ISDIR(os.stat(fs_path(src_abs)).st_mode)
            except OSError as exc:
                raise NodeSystemError(_errcode(exc), "stat", src_abs) from None
            if is_dir:
                if not recursive:
                    raise IsDirectoryError(src)
                self._copy_directory(src_abs, dest_abs, overwrite)
            else:
                _mkdirs(nodepath.dirname(dest_abs))
                try:
                    _node_copyfile(src_abs, dest_abs, exclusive=overwrite is False)
                except NodeSystemError as exc:
                    if overwrite is False and exc.code == "EEXIST":
                        raise FileExistsError_(dest) from None
                    raise
        except (IsDirectoryError, FileExistsError_):
            raise
        except Exception as exc:
            # Anything carrying code ENOENT (Node's or a workspace error) becomes "File not found: <src>".
            if getattr(exc, "code", None) == "ENOENT":
                raise FileNotFoundError_(src) from None
            raise

    def _copy_directory(self, src_abs: str, dest_abs: str, overwrite: bool | None) -> None:
        """copyDirectory: entries in readdir order; a symlink is copied as the file it names;
        with overwrite false an existing file is skipped silently."""
        self.ensure_ready()
        _mkdirs(dest_abs)
        try:
            names = [from_system(n) for n in sorted(os.listdir(fs_path(src_abs)), key=os.fsencode)]
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "scandir", src_abs) from None
        for name in names:
            src_entry, dest_entry = nodepath.join(src_abs, name), nodepath.join(dest_abs, name)
            self._assert_contained(src_entry)
            self._assert_contained(dest_entry)
            native = fs_path(src_entry)
            if os.path.isdir(native) and not os.path.islink(native):  # Dirent.isDirectory(): no follow
                self._copy_directory(src_entry, dest_entry, overwrite)
                continue
            try:
                _node_copyfile(src_entry, dest_entry, exclusive=overwrite is False)
            except NodeSystemError as exc:
                if overwrite is False and exc.code == "EEXIST":
                    continue
                raise

    def move_file(self, src: str, dest: str, overwrite: bool | None = None, recursive: bool | None = None) -> None:
        self._debug("Moving file", src=src, dest=dest, overwrite=overwrite)
        self.ensure_ready()
        self._assert_writable("moveFile")
        src_abs, dest_abs = self.resolve_path(src), self.resolve_path(dest)
        self._assert_contained(src_abs)
        self._assert_contained(dest_abs)
        try:
            _mkdirs(nodepath.dirname(dest_abs))
            if overwrite is False:
                # copy (exclusive) then fs.rm(src, {recursive: true, force: true})
                self.copy_file(src, dest, overwrite=False, recursive=recursive)
                _rm_force(src_abs)
                return
            try:
                os.rename(fs_path(src_abs, "oldPath"), fs_path(dest_abs, "newPath"))
            except OSError as exc:
                code = _errcode(exc)
                if code != "EXDEV":
                    raise NodeSystemError(code, "rename", src_abs, dest_abs) from None
                self.copy_file(src, dest, overwrite=overwrite, recursive=recursive)
                _rm_force(src_abs)
        except FileExistsError_:
            raise
        except Exception as exc:
            if getattr(exc, "code", None) == "ENOENT":
                raise FileNotFoundError_(src) from None
            raise


_UNSET = object()
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def _content_length(content) -> int:
    """content.length as the debug line reports it: a Buffer's bytes, a string's UTF-16 units."""
    return len(content) if isinstance(content, (bytes, bytearray)) else js_length(content)


class ContainedReader:
    """read(directory, name): the bytes read_file(join(directory, name)) would read, or None where
    read_file itself must decide (it then gives its own answer or error).

    read_file checks every path lexically against the roots and then through realpath. For the
    files of one directory both checks come down to the directory's: its absolute and real paths
    are worked out once, and each file costs two string tests and one lstat, which sends a symbolic
    link (whose target could be anywhere) or anything but a regular file to read_file."""

    def __init__(self, fs: LocalFilesystem):
        self.fs = fs
        self.roots = [r if r.endswith("/") else r + "/" for r in [fs.basePath, *fs.allowedPaths]]
        self.real_roots: list[str] | None = []
        for root in [fs.basePath, *fs.allowedPaths]:
            try:
                self.real_roots.append(os.path.realpath(fs_path(root), strict=True))
            except FileNotFoundError:
                continue
            except (OSError, NodeArgError):
                self.real_roots = None  # read_file's own error: let it raise it
                break
        self.dirs: dict[str, tuple[str, str] | None] = {}

    def _directory(self, directory: str):
        """(absolute prefix of its files, real prefix of its files), or None."""
        probe = resolve_to_base_path(self.fs.basePath, (f"{directory}probe" if directory.endswith("/")
                                                        else f"{directory}/probe"))
        if not probe.endswith("/probe") or self.real_roots is None:
            return None
        prefix = probe[:-len("probe")]
        try:
            real = os.path.realpath(fs_path(prefix), strict=True)
        except (OSError, NodeArgError):
            return None
        return prefix, (real if real.endswith("/") else real + "/")

    def read(self, directory: str, name: str) -> bytes | None:
        found = self.dirs.get(directory, _UNSET)
        if found is _UNSET:
            found = self.dirs[directory] = self._directory(directory)
        if found is None:
            return None
        prefix, real_prefix = found
        absolute = prefix + name
        if self.fs.contained:
            if not any(absolute.startswith(r) and not absolute[len(r):].startswith("..") for r in self.roots):
                return None  # read_file's lexical test (which takes a name like "..x" as outside)
            target = real_prefix + name
            if not any(target == r or target.startswith(r + "/") for r in self.real_roots):
                return None
        # O_NOFOLLOW sends a symbolic link to read_file (ELOOP), O_NONBLOCK keeps a FIFO from
        # blocking the open, and fstat then turns away anything but a regular file: the same
        # answers as an lstat before the open, one path lookup fewer.
        try:
            fd = os.open(fs_path(absolute), _READ_FLAGS)
        except (OSError, NodeArgError):
            return None
        try:
            st = os.fstat(fd)
            if not stat_mod.S_ISREG(st.st_mode):
                return None
            data = os.read(fd, st.st_size + 1)
            if len(data) <= st.st_size:  # a short read of a regular file: its end
                return data
            chunks = [data]
            while chunks[-1]:  # a file that grew since the fstat: read on to its end
                chunks.append(os.read(fd, 1 << 20))
            return b"".join(chunks)
        except OSError:
            return None
        finally:
            os.close(fd)


def _node_copyfile(src_abs: str, dest_abs: str, exclusive: bool) -> None:
    """fs.copyFile as libuv does it: the destination opened O_CREAT (O_EXCL with COPYFILE_EXCL),
    given the source's mode, truncated and filled; a copy that fails once the destination is open
    unlinks it. Errors as Node words them."""
    src_native, dest_native = fs_path(src_abs, "src"), fs_path(dest_abs, "dest")
    try:
        src_fd = os.open(src_native, os.O_RDONLY)
    except OSError as exc:
        raise NodeSystemError(_errcode(exc), "copyfile", src_abs, dest_abs) from None
    try:
        mode = os.fstat(src_fd).st_mode
        try:
            dest_fd = os.open(dest_native, os.O_WRONLY | os.O_CREAT | (os.O_EXCL if exclusive else 0),
                              stat_mod.S_IMODE(mode))
        except OSError as exc:
            raise NodeSystemError(_errcode(exc), "copyfile", src_abs, dest_abs) from None
        try:
            src_st, dest_st = os.fstat(src_fd), os.fstat(dest_fd)
            if (src_st.st_dev, src_st.st_ino) == (dest_st.st_dev, dest_st.st_ino):
                os.close(dest_fd)
                return  # libuv: source and destination are the same file, nothing to do
            os.fchmod(dest_fd, stat_mod.S_IMODE(mode))
            os.ftruncate(dest_fd, 0)
            while True:
                chunk = os.read(src_fd, 1 << 20)
                if not chunk:
                    break
                os.write(dest_fd, chunk)
        except OSError as exc:
            os.close(dest_fd)
            try:  # libuv removes the destination of a failed copy (even one that was there before)
                os.unlink(dest_native)
            except OSError:
                pass
            raise NodeSystemError(_errcode(exc), "copyfile", src_abs, dest_abs) from None
        os.close(dest_fd)
    finally:
        os.close(src_fd)


def _rm_force(path: str) -> None:
    """fs.rm(path, {recursive: true, force: true})."""
    path = fs_path(path)
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def js_utf8(text: str) -> bytes:
    """Buffer.from(text, 'utf-8'): the string as JavaScript's UTF-16 sees it, so a surrogate pair
    is one character and a lone surrogate becomes U+FFFD (EF BF BD)."""
    return to_well_formed(text).encode("utf-8")


_NODE_ENCODINGS = {
    "utf8": "utf8", "utf-8": "utf8", "ucs2": "utf16le", "ucs-2": "utf16le", "utf16le": "utf16le",
    "utf-16le": "utf16le", "latin1": "latin1", "binary": "latin1", "base64": "base64",
    "base64url": "base64url", "hex": "hex", "ascii": "ascii",
}


def decode(data: bytes, encoding) -> str:
    """Buffer.toString(encoding) for the encodings Node's fs.readFile accepts (names case-insensitive);
    any other name is Node's ERR_INVALID_ARG_VALUE TypeError."""
    enc = _NODE_ENCODINGS.get(encoding.lower()) if isinstance(encoding, str) else None
    if enc is None:
        err = JsTypeError(f"The argument 'encoding' is invalid encoding. Received {_node_inspect(encoding)}")
        err.code = "ERR_INVALID_ARG_VALUE"
        raise err
    if enc == "utf8":
        return data.decode("utf-8", "replace")
    if enc == "utf16le":
        return data[:len(data) - len(data) % 2].decode("utf-16-le", "surrogatepass")
    if enc == "latin1":
        return data.decode("latin-1")
    if enc == "ascii":
        return bytes(b & 0x7F for b in data).decode("ascii")
    if enc == "base64":
        return base64.b64encode(data).decode("ascii")
    if enc == "base64url":
        return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")
    return data.hex()


def _node_inspect(value) -> str:
    """How Node's ERR_INVALID_ARG_VALUE shows a received value (util.inspect, for the simple cases)."""
    if isinstance(value, str):
        inspected = inspect_string(value)
        return inspected[:128] + "..." if len(inspected) > 128 else inspected
    if value is True or value is False:
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _mkdirs(path: str) -> None:
    """fs.mkdir(path, {recursive: true}) as Node's MKDirpAsync does it, errors included.

    An existing final path must be a directory (EEXIST otherwise; a dangling link gives the stat's
    ENOENT); an existing intermediate that is not a directory gives ENOTDIR naming that intermediate.
    """
    stack = [path]
    while stack:
        current = stack.pop()
        try:
            os.mkdir(fs_path(current), 0o777)
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
            st_err, is_dir = None, stat_mod.S_ISDIR(os.stat(fs_path(current)).st_mode)
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


