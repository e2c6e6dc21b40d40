"""Workspace (upstream `workspace.ts`): a filesystem and/or a sandbox, a tools configuration, and a lifecycle.

Follows workspace.ts of @mastra/core 1.71.0 (no mounts, LSP or browser): the generated id and
name, the status machine of init/stop/destroy, getInfo and getInstructions(Async), search (index,
search, autoIndexPaths on init), skills, and resolver-backed providers (a filesystem or sandbox
given as a function of the request context, resolved per request; resolved sandboxes memoized
by sandboxCacheKey).

Request contexts arrive as fresh objects with every call, so the upstream's per-RequestContext
memoization (a WeakMap) never hits across calls and is not modelled: a resolver runs once per
tool call or method call that needs it.
"""
from __future__ import annotations

import os
import sys
import time
from datetime import datetime, timezone

from .errors import (
    FilesystemNotAvailableError,
    SandboxNotAvailableError,
    SearchNotAvailableError,
    WorkspaceError,
    WorkspaceNotReadyError,
)
from .js.strings import time_random_id
from .search import UNDEFINED, SearchEngine, split_into_chunks
from .search.bm25 import _js_slice_end
from .js.errors import JsTypeError



def _now() -> datetime:
    """new Date(): millisecond precision, UTC."""
    ms = time.time_ns() // 1_000_000
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


def _total_memory_mb() -> int | None:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024 / 1024)
    except (ValueError, OSError, AttributeError):
        return None


def _defined(d: dict) -> dict:
    """An object literal with its undefined properties left out (as JSON.stringify does)."""
    return {k: v for k, v in d.items() if v is not None}


class ProviderAccess:
    """What tools ask of a workspace: its filesystem or sandbox, or the upstream's error."""

    def require_filesystem(self):
        if self.filesystem is None:
            raise FilesystemNotAvailableError()
        return self.filesystem

    def require_sandbox(self):
        if self.sandbox is None:
            raise SandboxNotAvailableError()
        return self.sandbox




def _settled(value):
    """`await resolver(...)`: an async resolver's Promise gives its provider."""
    from .js.promise import Promise
    return value.settle() if isinstance(value, Promise) else value

def _class_called_without_new(cls):
    """A class used as a resolver: JS refuses to call a class constructor without `new`."""
    def resolver(*_args):
        raise JsTypeError(f"Class constructor {cls.__name__} cannot be invoked without 'new'")
    return resolver

class Workspace(ProviderAccess):
    def __init__(self, filesystem=None, sandbox=None, tools: dict | None = None,
                 id: str | None = None, name: str | None = None, bm25=None, autoIndexPaths=None,
                 skills=None, skillSource=None, searchIndexName=None, operationTimeout=None, vectorStore=None,
                 embedder=None, instructions=None, sandboxCacheKey=None, mounts=None, onMount=None, lsp=None,
                 checkSkillFileMtime=None):
        self.id = id or time_random_id("ws")  # generateId()
        self.name = name or f"workspace-{self.id[:8]}"
        self.createdAt = _now()
        self.lastAccessedAt = _now()
        # A function is a resolver: no static instance, resolved per request.
        if isinstance(filesystem, type):  # the class itself, a common mistake, is refused for the filesystem
            raise WorkspaceError(
                "filesystem received a class constructor instead of an instance or resolver function. Pass an "
                "instance (e.g., new LocalFilesystem(...)) or a resolver function (({ requestContext }) => fs).",
                "INVALID_CONFIG")
        if isinstance(sandbox, type):  # ... but not for the sandbox: taken as a resolver, it fails when called
            sandbox = _class_called_without_new(sandbox)
        self._filesystem_resolver = filesystem if callable(filesystem) else None
        self._sandbox_resolver = sandbox if callable(sandbox) else None
        self.filesystem = None if callable(filesystem) else filesystem
        self.sandbox = None if callable(sandbox) else sandbox
        if mounts:
            self._set_up_mounts(mounts, onMount, filesystem)
        self._sandbox_cache_key = sandboxCacheKey
        self._sandbox_key_cache: dict[str, object] = {}
        # Per request-context object (upstream: WeakMaps keyed by the RequestContext): id -> (context,
        # value); the context is held so its id is not reused.
        self._filesystem_request_cache: dict[int, tuple] = {}
        self._sandbox_request_cache: dict[int, tuple] = {}
        self._dynamic_sandbox_instructions = (instructions or {}).get("dynamicSandbox") or "placeholder"
        self.tools_config = tools
        self.logger = None  # set by __setLogger (set_logger); the tools log their native fallbacks to it
        self._status = "pending"
        self._teardown_started = False
        self.auto_index_paths = autoIndexPaths
        self.skills_config = skills
        self.skill_source = skillSource  # a source, or {basePath}: a LocalSkillSource
        self.check_skill_file_mtime = bool(checkSkillFileMtime)  # maybeRefresh also stats each SKILL.md
        self.operation_timeout = operationTimeout  # stored, as upstream, and never applied
        self._skills = None
        if vectorStore and not embedder:
            raise WorkspaceError("vectorStore requires an embedder", "INVALID_SEARCH_CONFIG")
        self._search_engine = None
        if bm25 or (vectorStore and embedder):
            vector = None
            if vectorStore and embedder:
                vector = {"vectorStore": vectorStore, "embedder": embedder,
                          "indexName": self._index_name(searchIndexName)}
            self._search_engine = SearchEngine(bm25=_parse_bm25(bm25) if bm25 else None, vector=vector)
        self.lsp = self._make_lsp(lsp)
        # The composite filesystem of mounts counts (upstream checks this._fs, after the mounts)
        if self.filesystem is None and self._filesystem_resolver is None and sandbox is None \
                and not self._has_skills_config():  # a resolver counts
            raise WorkspaceError("Workspace requires at least a filesystem, sandbox, or skills", "NO_PROVIDERS")

    def _make_lsp(self, config):
        """The LSP manager, when `lsp` is set and a static sandbox has a process manager (else a
        warning and none). Its default root: the config's, else the project root above
        process.cwd(), else process.cwd()."""
        if config is None or config is False or config == 0 or config == "":  # JS: `if (config.lsp)`
            return None
        processes = getattr(self.sandbox, "processes", None)
        if self._sandbox_resolver is not None:
            warning = ("lsp: true is incompatible with a dynamic sandbox resolver — LSP needs a process manager at "
                       "construction time, but the sandbox is resolved per request. LSP disabled.")
        elif self.sandbox is None:
            warning = "lsp: true requires a sandbox with a process manager. No sandbox configured — LSP disabled."
        elif processes is None:
            warning = (f'lsp: true requires a sandbox with a process manager. Sandbox '
                       f'"{getattr(self.sandbox, "name", None) or "unknown"}" does not provide one — LSP disabled.')
        else:
            from .lsp import LSPManager, find_project_root
            options = {} if config is True else config
            root = options.get("root")
            if root is None:
                root = find_project_root(os.getcwd()) or os.getcwd()
            return LSPManager(processes, root, options, self.filesystem)
        print(f'[Workspace "{self.name}"] {warning}', file=sys.stderr)  # console.warn
        return None

    def _set_up_mounts(self, mounts: dict, on_mount, filesystem) -> None:
        """The mounts become a CompositeFilesystem, and pending mounts of a static sandbox."""
        if filesystem is not None:
            raise WorkspaceError('Cannot use both "filesystem" and "mounts"', "INVALID_CONFIG")
        if self._sandbox_resolver is not None:
            raise WorkspaceError(
                'Cannot use "mounts" with a dynamic sandbox resolver. Mounts are attached to a sandbox instance at '
                "construction time. Either pass a static sandbox instance, or have your resolver return a sandbox "
                "with its mounts already configured.", "INVALID_CONFIG")
        from .filesystem.composite_filesystem import CompositeFilesystem
        self.filesystem = CompositeFilesystem(mounts)
        manager = getattr(self.sandbox, "mounts", None)
        if manager is not None:
            manager.set_context(self.sandbox, self)
            manager.add(mounts)
            if on_mount is not None:
                manager.set_on_mount(on_mount)

    def set_logger(self, logger) -> None:
        """__setLogger: the workspace's logger, passed on to a static filesystem and sandbox (not to a
        resolver's, which has no instance yet)."""
        self.logger = logger
        for provider in (self.filesystem, self.sandbox):
            if provider is not None and callable(getattr(provider, "set_logger", None)):
                provider.set_logger(logger)

    def _index_name(self, configured) -> str:
        """The vector index name: searchIndexName, or `${id}_search` sanitized; a SQL identifier."""
        import re
        name = configured if configured is not None else re.sub(r"[^a-zA-Z0-9_]", "_", f"{self.id}_search")
        if not re.fullmatch(r"[a-zA-Z_][a-zA-Z0-9_]*", name):
            raise WorkspaceError(f'Invalid searchIndexName: "{name}". Must start with a letter or underscore, and '
                                 'contain only letters, numbers, or underscores.', "INVALID_SEARCH_CONFIG")
        length = len(name.encode("utf-16-le")) // 2
        if length > 63:
            raise WorkspaceError(f"searchIndexName exceeds 63 characters (got {length})", "INVALID_SEARCH_CONFIG")
        return name

    def _has_skills_config(self) -> bool:
        return self.skills_config is not None and (callable(self.skills_config) or len(self.skills_config) > 0)

    @property
    def status(self) -> str:
        return self._status

    # -- tools configuration ------------------------------------------------------------------

    def tool_config(self, tool_id: str) -> dict:
        value = (self.tools_config or {}).get(tool_id)
        return value if isinstance(value, dict) else {}

    def tool_enabled(self, tool_id: str, request_context: dict | None = None) -> bool:
        """Per-tool over global over true; a function gets {requestContext, workspace}; fail-closed."""
        from .utils import resolve_dynamic
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

    def set_tools_config(self, config: dict | None = None) -> None:
        """A full replacement; takes effect at the next tool build."""
        self.tools_config = config

    def has_filesystem_config(self) -> bool:
        return self.filesystem is not None or self._filesystem_resolver is not None

    def has_sandbox_config(self) -> bool:
        return self.sandbox is not None or self._sandbox_resolver is not None

    def has_sandbox_resolver(self) -> bool:
        return self._sandbox_resolver is not None

    def has_sandbox_cache_key(self) -> bool:
        return self._sandbox_cache_key is not None

    def resolve_filesystem(self, opts=None):
        """The resolver's filesystem for the request context; a static one as it is; None without."""
        if self._filesystem_resolver is None:
            return self.filesystem
        request_context = _context(opts)
        # The Promise is what is memoised (a rejected one too, as upstream keeps it); a resolver that
        # throws at once is not.
        return _settled(_memoised(self._filesystem_request_cache, request_context,
                                  lambda: self._filesystem_resolver({"requestContext": request_context})))

    def resolve_sandbox(self, opts=None):
        """The resolver's sandbox, memoized per sandboxCacheKey when that gives a key."""
        if self._sandbox_resolver is None:
            return self.sandbox
        request_context = _context(opts)
        key = self._sandbox_cache_key({"requestContext": request_context}) if self._sandbox_cache_key else None
        if key is None:  # else memoised per request-context object; a rejection is dropped, as upstream's catch does
            return _memoised(self._sandbox_request_cache, request_context,
                             lambda: _settled(self._sandbox_resolver({"requestContext": request_context})))
        if key not in self._sandbox_key_cache:
            self._sandbox_key_cache[key] = _settled(self._sandbox_resolver({"requestContext": request_context}))
        return self._sandbox_key_cache[key]

    def clear_sandbox_cache(self, key=None) -> None:
        """Drops keyed resolver sandboxes (one key, or all); the sandboxes themselves are not touched, nor
        the per-request-context entries (upstream a WeakMap, which cannot be cleared)."""
        if key is None:
            self._sandbox_key_cache.clear()
        else:
            self._sandbox_key_cache.pop(key, None)
        return None

    def effective(self, request_context: dict | None, filesystem: bool = False, sandbox: bool = False):
        """resolveEffectiveWorkspace: this workspace, or a view with the resolved providers."""
        self.touch()
        need_fs = filesystem and self.filesystem is None and self._filesystem_resolver is not None
        need_sb = sandbox and self.sandbox is None and self._sandbox_resolver is not None
        if not need_fs and not need_sb:
            return self
        opts = {"requestContext": request_context if request_context is not None else {}}
        fs = self.resolve_filesystem(opts) if need_fs else None
        sb = self.resolve_sandbox(opts) if need_sb else None
        if fs is None and sb is None:
            return self
        return EffectiveWorkspace(self, fs, sb)

    def touch(self) -> None:
        """What every tool execution does first (resolveEffectiveWorkspace)."""
        self.lastAccessedAt = _now()

    # -- search and skills ----------------------------------------------------------------------

    @property
    def can_bm25(self) -> bool:
        return self._search_engine.can_bm25 if self._search_engine else False

    @property
    def can_vector(self) -> bool:
        return self._search_engine.can_vector if self._search_engine else False

    @property
    def can_hybrid(self) -> bool:
        return self._search_engine.can_hybrid if self._search_engine else False

    @property
    def skills(self):
        """The skills (discovered lazily from the filesystem); None without skills paths."""
        if not self._has_skills_config():
            return None
        self._assert_search_writable()
        if self._skills is None:
            from .skills import LocalSkillSource, WorkspaceSkills
            # skillSource over the filesystem; with neither, LocalSkillSource reads the process's cwd
            source = (self.skill_source if hasattr(self.skill_source, "readdir")  # a source object
                      else LocalSkillSource(**self.skill_source) if self.skill_source is not None
                      else self.filesystem if self.filesystem is not None else LocalSkillSource())
            self._skills = WorkspaceSkills(source, self.skills_config, self._search_engine,
                                           self._assert_search_writable,
                                           check_skill_file_mtime=self.check_skill_file_mtime)
        return self._skills

    def _assert_search_writable(self) -> None:
        if self._teardown_started:
            raise WorkspaceNotReadyError(self._status)

    def index(self, path: str, content: str, options: dict | None = None) -> None:
        self._assert_search_writable()
        if self._search_engine is None:
            raise SearchNotAvailableError()
        self.touch()
        options = options or {}
        metadata = {"type": options.get("type", UNDEFINED), "mimeType": options.get("mimeType", UNDEFINED),
                    **(options.get("metadata") or {})}
        self._search_engine.index({"id": path, "content": content, "metadata": metadata,
                                   "startLineOffset": options.get("startLineOffset")})

    def search(self, query: str, options: dict | None = None) -> list[dict]:
        """Unscoped search: documents of request-scoped skill views (skillScope) are left out."""
        if self._search_engine is None:
            raise SearchNotAvailableError()
        self.touch()
        options = options or {}
        from .skills import SKILL_SCOPE_DOCUMENT_PREFIX
        scoped = self._search_engine.count_by_prefix(SKILL_SCOPE_DOCUMENT_PREFIX)
        top_k = options.get("topK")
        top_k = 10 if top_k is None else top_k
        unscoped = {"skillScope": {"$exists": False}}
        flt = {"$and": [options["filter"], unscoped]} if options.get("filter") else unscoped
        results = self._search_engine.search(query, {**options, "topK": top_k + scoped, "filter": flt})
        results = [r for r in results if (r.get("metadata") or {}).get("skillScope", UNDEFINED) is UNDEFINED]
        return results[:_js_slice_end(top_k)]  # Array.slice: a fractional topK truncates

    def rebuild_search_index(self, paths: list[str] | None = None) -> None:
        """Index the files under paths (plain paths or globs): whole files, or 4000-character chunks."""
        from .glob import resolve_path_pattern
        self._assert_search_writable()
        paths = (self.auto_index_paths or []) if paths is None else paths
        if self._search_engine is None or self.filesystem is None or not paths:
            return
        self._search_engine.clear()
        fs = self.filesystem
        readdir = lambda d: fs.readdir(d)  # noqa: E731
        indexed: set[str] = set()
        for pattern in paths:
            try:
                resolved = resolve_path_pattern(pattern, readdir)
                files: dict[str, None] = {}
                roots: list[str] = []
                for entry in resolved:
                    if entry["type"] == "file":
                        files[entry["path"]] = None
                        continue
                    if not any(entry["path"] == r or entry["path"].startswith(r + "/") for r in roots):
                        roots.append(entry["path"])
                indexed.update(self._index_files([f for f in files if f not in indexed]))
                for root in roots:
                    try:
                        found = [f for f in self._all_files(fs, root, 0, 10) if f not in indexed]
                        indexed.update(self._index_files(found))
                    except Exception:
                        pass  # skip directories that cannot be read
            except Exception:
                pass  # skip paths that do not exist or cannot be read

    def _index_files(self, paths: list[str]) -> list[str]:
        """indexFilesForSearch: the readable files at once (index_many); when that throws, one file at a
        time (indexFileForSearch), logging each document that fails."""
        try:
            entries = []
            for path in paths:
                try:
                    content = self.filesystem.read_file(path, encoding="utf-8")
                except Exception:
                    continue
                entries.append((path, _search_documents(path, content)))
            for path, _ in entries:
                self._search_engine.remove_source(path)
            self._search_engine.index_many([doc for _, docs in entries for doc in docs])
            return [path for path, _ in entries]
        except Exception:
            return [path for path in paths if self._index_file(path)]

    def _index_file(self, path: str) -> bool:
        """indexFileForSearch: whether the file, or one of its chunks, was indexed."""
        try:
            content = self.filesystem.read_file(path, encoding="utf-8")
        except Exception:
            return False
        self._search_engine.remove_source(path)
        docs = _search_documents(path, content)
        indexed = False
        for i, doc in enumerate(docs):
            try:
                self._search_engine.index(doc)
                indexed = True
            except Exception as error:
                if self.logger is not None:
                    what = f'file "{path}"' if len(docs) == 1 else f'chunk {i} of file "{path}"'
                    self.logger.warn(f"Failed to index {what} for search", {"error": error})
        return indexed

    # -- lifecycle ------------------------------------------------------------------------------

    def init(self) -> None:
        self._status = "initializing"
        try:
            if self.filesystem is not None:
                self.filesystem.init()
            if self.sandbox is not None and hasattr(self.sandbox, "start"):
                self.sandbox.start()
            if self._search_engine is not None and self.auto_index_paths:
                self.rebuild_search_index(self.auto_index_paths)
            self._status = "ready"
        except Exception:
            self._status = "error"
            raise

    def stop(self) -> None:
        """Stops the sandbox (LocalSandbox kills its background processes); not a teardown. The
        LSP clients go first (they need their processes to say shutdown and exit); the manager stays."""
        if self._teardown_started or self._status == "destroyed":
            return
        self._shutdown_lsp()
        if self.sandbox is not None and hasattr(self.sandbox, "stop"):
            self.sandbox.stop()

    def destroy(self) -> None:
        if self._status == "destroyed":
            return
        self._teardown_started = True
        self._status = "destroying"
        try:
            self._shutdown_lsp()
            self.lsp = None
            if self.sandbox is not None and hasattr(self.sandbox, "destroy"):
                self.sandbox.destroy()
            if self.filesystem is not None:
                self.filesystem.destroy()  # LocalFilesystem keeps the files on disk
            self.clear_sandbox_cache()  # resolver sandboxes are the application's: dropped, not destroyed
            self._status = "destroyed"
        except Exception:
            self._status = "error"
            raise
        finally:
            # The index and the skills registry are released even when a provider fails.
            if self._search_engine is not None:
                self._search_engine.clear()
            self._skills = None

    def _shutdown_lsp(self) -> None:
        if self.lsp is not None:
            try:
                self.lsp.shutdown_all()
            except Exception:
                pass  # LSP shutdown errors are non-blocking

    # -- information ----------------------------------------------------------------------------

    def get_info(self, options: dict | None = None) -> dict:
        options = options or {}
        info = {"id": self.id, "name": self.name, "status": self._status,
                "createdAt": self.createdAt, "lastAccessedAt": self.lastAccessedAt}
        fs = self.filesystem
        resolve = options.get("resolveDynamicProviders")
        if fs is None and self._filesystem_resolver is not None and (resolve is None or resolve):
            fs = self.resolve_filesystem({"requestContext": options.get("requestContext") or {}})
        if fs is None and self._filesystem_resolver is not None:
            info["filesystem"] = {"id": f"{self.id}-dynamic-filesystem", "name": "DynamicFilesystem",
                                  "provider": "dynamic", "status": "pending"}
        if fs is not None:
            fs_info = fs.get_info() if hasattr(fs, "get_info") else {}
            info["filesystem"] = _defined({
                "id": fs_info.get("id", getattr(fs, "id", None)),
                "name": fs_info.get("name", getattr(fs, "name", None)),
                "provider": fs_info.get("provider", getattr(fs, "provider", None)),
                "readOnly": fs_info.get("readOnly") if fs_info.get("readOnly") is not None else getattr(fs, "readOnly", None),
                "status": fs_info.get("status"),
                "error": fs_info.get("error"),
                "icon": fs_info.get("icon"),
                "metadata": fs_info.get("metadata"),
            })
            if options.get("includeFileCount"):
                try:
                    info["filesystem"]["totalFiles"] = len(self._all_files(fs, ".", 0, 10))
                except Exception:
                    pass  # the filesystem may not support listing
        sb = self.sandbox
        if sb is not None:
            sb_info = sb.get_info() if hasattr(sb, "get_info") else {
                "status": sb.status,
                "resources": _defined({"memoryMB": _total_memory_mb(), "cpuCores": os.cpu_count()}),
            }
            info["sandbox"] = _defined({
                "provider": getattr(sb, "provider", None),
                "status": sb_info.get("status") or getattr(sb, "status", None),
                "resources": sb_info.get("resources"),
            })
        elif self._sandbox_resolver is not None:  # never resolved here: that could provision one
            info["sandbox"] = {"provider": "dynamic", "status": "pending"}
        return info

    def get_path_context(self) -> dict:
        """`getPathContext()`: each provider's kind and root, and their instructions joined by a space
        (filesystem first); a missing provider's key is undefined (left out)."""
        fs, sb = self.filesystem, self.sandbox
        parts = [fs.get_instructions() if fs is not None and hasattr(fs, "get_instructions") else None,
                 sb.get_instructions() if sb is not None and hasattr(sb, "get_instructions") else None]
        context = {}
        if fs is not None:
            context["filesystem"] = _defined({"provider": fs.provider, "basePath": getattr(fs, "basePath", None)})
        if sb is not None:
            context["sandbox"] = _defined({"provider": sb.provider,
                                           "workingDirectory": getattr(sb, "working_directory", None)})
        context["instructions"] = " ".join(p for p in parts if p)
        return context

    def _all_files(self, fs, directory: str, depth: int, max_depth: int) -> list[str]:
        if depth >= max_depth:
            return []
        files = []
        for entry in fs.readdir(directory):
            name = entry["name"] if isinstance(entry, dict) else entry.name
            kind = entry["type"] if isinstance(entry, dict) else entry.type
            link = entry.get("isSymlink") if isinstance(entry, dict) else getattr(entry, "isSymlink", False)
            full = name if directory in (".", "") else f"{directory}/{name}"
            if kind == "file":
                files.append(full)
            elif kind == "directory" and not link:
                files += self._all_files(fs, full, depth + 1, max_depth)
        return files

    def get_instructions(self, opts: dict | None = None) -> str:
        """The static providers' instructions (a resolver-backed one contributes nothing)."""
        return _instructions_for(self.filesystem, self.sandbox, opts)

    def get_instructions_async(self, opts: dict | None = None) -> str:
        """A resolver filesystem is resolved; a resolver sandbox gives placeholder text, or a function's
        text, unless instructions.dynamicSandbox is 'resolve'."""
        request_context = _context(opts)
        resolved_opts = {**(opts or {}), "requestContext": request_context}
        fs = self.resolve_filesystem(resolved_opts) if self._filesystem_resolver else self.filesystem
        mode = self._dynamic_sandbox_instructions
        if self._sandbox_resolver is not None and mode != "resolve":
            sandbox_text = mode({"requestContext": request_context}) if callable(mode) else DYNAMIC_SANDBOX_INSTRUCTIONS
            fs_text = _instructions_for(fs, None, resolved_opts)
            return "\n\n".join(t for t in (sandbox_text, fs_text) if t)
        sb = self.resolve_sandbox(resolved_opts) if self._sandbox_resolver else self.sandbox
        return _instructions_for(fs, sb, resolved_opts)


DYNAMIC_SANDBOX_INSTRUCTIONS = ("Dynamic sandbox configured. Shell commands execute in a request-scoped sandbox "
                                "resolved at tool execution time.")


def _memoised(cache: dict, request_context: dict, resolve):
    """One resolution per request-context object; a resolver that throws is not remembered."""
    entry = cache.get(id(request_context))
    if entry is None or entry[0] is not request_context:
        entry = (request_context, resolve())
        cache[id(request_context)] = entry
    return entry[1]


def _context(opts) -> dict:
    """The request context of a method's options: a plain object, {} when absent."""
    context = (opts or {}).get("requestContext")
    return context if context is not None else {}


def _instructions_for(fs, sandbox, opts) -> str:
    """The sandbox's instructions, then the filesystem's, blank-line separated, empty parts dropped.
    With a mount table in the sandbox, the mounts by state instead of the filesystem's text."""
    parts = []
    if sandbox is not None and hasattr(sandbox, "get_instructions"):
        text = sandbox.get_instructions(opts)
        if text:
            parts.append(text)
    entries = getattr(getattr(sandbox, "mounts", None), "entries", None)
    if entries:
        parts += _mount_instructions(sandbox, entries)
    elif fs is not None and hasattr(fs, "get_instructions"):
        text = fs.get_instructions(opts)
        if text:
            parts.append(text)
    return "\n\n".join(parts)


def _mount_instructions(sandbox, entries: dict) -> list[str]:
    """Mounted, pending and mounting mounts are usable in shell commands (shown at their host path
    under a LocalSandbox's working directory); the others (error, unsupported ...) by the file tools only."""
    from .filesystem.composite_filesystem import display_name
    from .js import node_path as nodepath
    from .sandbox import LocalSandbox
    working = sandbox.working_directory if isinstance(sandbox, LocalSandbox) else None
    accessible, workspace_only = [], []
    for mount_path, entry in entries.items():
        fs = entry["filesystem"]
        name, access = display_name(fs), "read-only" if fs.readOnly else "read-write"
        if entry["state"] in ("mounted", "pending", "mounting"):
            shown = nodepath.join(working, mount_path.lstrip("/")) if working else mount_path
            accessible.append(f"  - {shown}: {name} ({access})")
        else:
            workspace_only.append(f"  - {mount_path}: {name} ({access})")
    parts = []
    if accessible:
        parts.append("Sandbox-mounted filesystems (accessible in shell commands):\n" + "\n".join(accessible))
    if workspace_only:
        parts.append("Workspace-only filesystems (use file tools, NOT available in shell commands):\n"
                     + "\n".join(workspace_only))
    return parts


class EffectiveWorkspace(ProviderAccess):
    """The workspace as a tool call sees it: the resolved filesystem and/or sandbox in place."""

    def __init__(self, workspace, filesystem=None, sandbox=None):
        self._workspace = workspace
        self.filesystem = filesystem if filesystem is not None else workspace.filesystem
        self.sandbox = sandbox if sandbox is not None else workspace.sandbox

    def __getattr__(self, name):
        return getattr(self._workspace, name)

    def get_info(self, options: dict | None = None) -> dict:
        # Upstream getInfo runs on the effective workspace proxy: `this.filesystem` / `this.sandbox`
        # are the providers resolved for this call, so a tool's metadata chunk shows them.
        return type(self._workspace).get_info(self, options)



def _search_documents(path: str, content: str) -> list[dict]:
    """A file's search documents: the whole file, or its 4000-character chunks ('<path>#chunk-<n>')."""
    chunks = split_into_chunks(content)
    if len(chunks) == 1:
        return [{"id": path, "content": content}]
    return [{"id": f"{path}#chunk-{i}", "content": c["content"], "startLineOffset": c["startLine"],
             "metadata": {"sourceFile": path}} for i, c in enumerate(chunks)]


def _parse_bm25(bm25) -> dict:
    """parseBM25Config: true -> defaults; {bm25?, tokenize?} as is (stopwords: their strings); else the BM25 config."""
    if isinstance(bm25, bool):
        return {}
    if "bm25" in bm25 or "tokenize" in bm25:
        tokenize = bm25.get("tokenize")
        if isinstance(tokenize, dict) and isinstance(tokenize.get("stopwords"), list):
            tokenize = {**tokenize, "stopwords": {w for w in tokenize["stopwords"] if isinstance(w, str)}}
        return {"bm25": bm25.get("bm25"), "tokenize": tokenize}
    return {"bm25": bm25}
