"""Sessions: wsref behind the wsconf protocol's operations (spec/protocol.md): results as plain JSON data.

Used in process by the harness's reference adapter and over stdin/stdout by `python -m wsref.server`.
"""
from __future__ import annotations

import contextlib
import io
import os
import sys
import threading

from .. import __version__
from ..errors import js_name
from ..js import date
from .api_methods import API_METHODS, _sandbox
from ..filesystem.local_filesystem import LocalFilesystem
from ..sandbox import LocalSandbox
from ..sandbox.native_sandbox import is_bwrap_available
from ..tools import ast_edit, create_workspace_tools
from ..tools.media import is_media_result
from ..workspace import Workspace
from .host_functions import HookLog, with_host_functions
from .recording_span import RecordingSpan
from .wire import from_json, to_json

IMPLEMENTATION = "wsref"
CAPABILITIES = (
    "filesystem", "absolute_paths", "containment", "host_paths", "local_identity", "symlinks", "file_modes",
    "empty_dirs", "tilde_home", "media",
    "read_only", "allowed_paths", "tool_config", "tool_hooks", "fs_interface", "posix_errors", "sandbox", "processes",
    "host_processes", "lifecycle", "bm25", "vector", "skills", "native_fs", "agent_loop", "concurrent_calls",
    "foreground_sandbox", "coding_agent", "mastra_registry", "tool_writer", "call_request_context", "call_abort",
    "approval_fn", "instance_identity", "shared_request_context", "process_cwd",
    "process_path", "runtime_dir", "sandbox_mounts", "published_skills", "tool_tracing", "error_details",
    "agent_threads", "task_signals", "lsp", "clock_control", "process_handles", "context_probes",
    "console_warnings",
) + (("ast_edit",) if ast_edit.engine_available() else ()) + (
    ("isolation_bwrap",) if is_bwrap_available() else ("bwrap_absent",))
# Workspace options the `open` request passes on as given (spec/protocol.md).
WORKSPACE_OPTIONS = ("bm25", "autoIndexPaths", "skills", "skillSource", "searchIndexName", "operationTimeout",
                     "instructions", "sandboxCacheKey", "lsp", "checkSkillFileMtime")


def result_of(output, model=None) -> dict:
    if isinstance(output, str):
        return {"kind": "text", "value": output, "model": model}
    if is_media_result(output):
        value = {k: output[k] for k in ("text", "mediaType", "data")}
        return {"kind": "media", "value": value, "model": model}
    return {"kind": "value", "value": to_json(output), "model": model}


_DETAILS = threading.local()  # capability error_details: whether the request in this thread asked for them


def error_of(exc: BaseException) -> dict:
    result = {"kind": "error", "message": getattr(exc, "message", None) or str(exc),
              "code": getattr(exc, "code", None), "name": js_name(exc)}
    if getattr(_DETAILS, "on", False):
        from .error_details import error_details
        result["details"] = to_json(error_details(exc))
    return result


def with_error_details(wanted: bool, run):
    """Runs a request; its error Results carry `details` when it asked for them (errorDetails)."""
    previous = getattr(_DETAILS, "on", False)
    _DETAILS.on = wanted
    try:
        return run()
    finally:
        _DETAILS.on = previous


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
    "resolveAbsolutePath": ("resolve_absolute_path", ["path"]),
    # Capability sandbox_mounts: a CompositeFilesystem's own lookup (the mount path holding a path)
    "getMountPathForPath": ("get_mount_path_for_path", ["path"]),
    "getInfo": ("get_info", []),
    "getInstructions": ("get_instructions", []),
    # The provider's own hooks, as `filesystem.init()` calls them: no status tracking (that is
    # MastraFilesystem._init/_destroy, which workspace.init/destroy and ensureReady use).
    "init": ("init_hook", []),
    "destroy": ("destroy_hook", []),
}


@contextlib.contextmanager
def _console_warnings(hook_log):
    """Capability console_warnings: what the Workspace's constructor writes to stderr (its console.warn),
    a line a call, goes to the hook log instead."""
    if hook_log is None:
        yield
        return
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured):
        yield
    hook_log.extend({"hook": "console.warn", "message": line} for line in captured.getvalue().splitlines())


class Session:
    """One open workspace: its tools are built once, so a case's steps share tracker and locks."""

    def __init__(self, root: str, home: str, workspace: dict):
        from . import host_providers
        from .host_functions import is_host_function
        self.hook_log: list[dict] = HookLog()
        self.resolved_sandboxes: list = []  # from a sandbox resolver: destroyed on close
        # With mounts and no `filesystem` key, the mounts are the filesystem (capability sandbox_mounts).
        fs_config = workspace.get("filesystem", None if "mounts" in workspace else {})
        sb_config = workspace.get("sandbox")
        if is_host_function(fs_config) and fs_config.get("$fn") == "classRef":  # the class itself, as given
            filesystem = with_host_functions(fs_config, self.hook_log, "filesystem")
        elif is_host_function(fs_config):
            filesystem = host_providers.filesystem_resolver(fs_config, root, self.hook_log)
        else:
            filesystem = None if fs_config is None else LocalFilesystem(
                **{"basePath": root, **with_host_functions(fs_config or {}, self.hook_log, "filesystem")})
        if "native" in workspace:  # capability native_fs: the test provider's walk/grep (native_fs.py)
            from .native_fs import with_native
            with_native(filesystem, workspace["native"], self.hook_log)
        if is_host_function(sb_config) and sb_config.get("$fn") == "classRef":
            sandbox = with_host_functions(sb_config, self.hook_log, "sandbox")
        elif is_host_function(sb_config):
            sandbox = host_providers.sandbox_resolver(sb_config, root, self.hook_log, self.resolved_sandboxes)
        else:
            options = None if sb_config is None else {k: v for k, v in sb_config.items() if k != "foregroundOnly"}
            sandbox = None if sb_config is None else LocalSandbox(
                **{"workingDirectory": root, **with_host_functions(options, self.hook_log, "sandbox")})
            if sb_config is not None and sb_config.get("foregroundOnly") is True:
                sandbox.processes = None  # capability foreground_sandbox: executeCommand, no process manager
        if workspace.get("codingAgent") is True:
            # Capability coding_agent: createCodingAgent()'s default workspace, built where the
            # process's working directory is the root (its basePath is process.cwd()).
            filesystem = LocalFilesystem(basePath=root)
            sandbox = LocalSandbox(workingDirectory=root)
        self.request_context = dict(workspace.get("requestContext") or {})
        self.tool_options = workspace.get("toolOptions")  # createWorkspaceTools' options (grep strict)
        tools_config = with_host_functions(workspace.get("tools"), self.hook_log)
        from . import host_search
        search_objects = {k: host_search.build(k, workspace[k], self.hook_log)
                          for k in ("vectorStore", "embedder") if k in workspace}
        if isinstance(workspace.get("skillSource"), dict) and "published" in workspace["skillSource"]:
            workspace = {**workspace, "skillSource": _published_skill_source(root, workspace["skillSource"])}
        mount_options = {}
        if "mounts" in workspace:  # capability sandbox_mounts: {mountPath: LocalFilesystem options}
            mount_options["mounts"] = {path: LocalFilesystem(**with_host_functions(options, self.hook_log, "filesystem"))
                                       for path, options in workspace["mounts"].items()}
        if "onMount" in workspace:
            mount_options["onMount"] = with_host_functions(workspace["onMount"], self.hook_log, "onMount")
        with _console_warnings(self.hook_log if workspace.get("consoleWarn") == "record" else None):
            self.workspace = Workspace(filesystem=filesystem, sandbox=sandbox, tools=tools_config, **mount_options,
                                       id=workspace.get("id"), name=workspace.get("name"), **search_objects,
                                       **{k: with_host_functions(workspace[k], self.hook_log, k)
                                          for k in WORKSPACE_OPTIONS if k in workspace})
        self.hook_log.workspace = self.workspace
        if workspace.get("logger") in ("record", "recordDebug"):
            from .native_fs import RecordingLogger
            self.workspace.set_logger(RecordingLogger(self.hook_log, with_debug=workspace["logger"] == "recordDebug"))
        self.home = home
        self._tools = None
        self.contexts: dict[str, dict] = {}  # capability shared_request_context
        self.thread_state: dict = {}  # the agent runs' storage: threadState, {(threadId, type): value}
        self.process_cwd = workspace.get("processCwd")  # capability process_cwd
        self.process_tmpdir = workspace.get("processTmpdir")  # capability sandbox_mounts: TMPDIR
        self.process_path = workspace.get("processPath")  # capability process_path: PATH
        self._cwd_depth = 0
        self._cwd_previous = None
        import threading
        self._cwd_lock = threading.Lock()
        self.instances: dict[int, tuple] = {}  # capability instance_identity

    def in_process_env(self, fn, *args, **kwargs):
        """fn run with the process's working directory at processCwd (capability process_cwd: what a
        relative cwd resolves against) and TMPDIR at processTmpdir (capability sandbox_mounts: where
        mount markers go) and PATH at processPath (capability process_path: where `bwrap` is looked
        for), all restored when the outermost such call ends (group's threads nest)."""
        if self.process_cwd is None and self.process_tmpdir is None and self.process_path is None:
            return fn(*args, **kwargs)
        with self._cwd_lock:
            if self._cwd_depth == 0:
                self._cwd_previous = (os.getcwd(), os.environ.get("TMPDIR"), os.environ.get("PATH"))
                if self.process_cwd is not None:
                    os.chdir(self.process_cwd)
                if self.process_tmpdir is not None:
                    os.environ["TMPDIR"] = self.process_tmpdir
                if self.process_path is not None:
                    os.environ["PATH"] = self.process_path
            self._cwd_depth += 1
        try:
            return fn(*args, **kwargs)
        finally:
            with self._cwd_lock:
                self._cwd_depth -= 1
                if self._cwd_depth == 0:
                    cwd, tmpdir, path = self._cwd_previous
                    os.chdir(cwd)
                    _put_env("TMPDIR", tmpdir)
                    if self.process_path is not None:
                        _put_env("PATH", path)

    def _build_tools(self, thread: str | None = None) -> dict:
        # A request context of its own: the workspace memoises resolvers per request-context object.
        tracker = None
        if thread is not None:  # an agent run on a thread: reads tracked in the session's thread state
            from ..filesystem.thread_state_read_tracker import ThreadStateReadTracker
            tracker = ThreadStateReadTracker(self.thread_state, thread)
        tools = create_workspace_tools(self.workspace, dict(self.request_context), self.tool_options, tracker)
        skills = self.workspace.skills
        if skills is not None:  # the agent adds the skill tools next to the workspace tools
            from ..skills import create_skill_tools
            tools.update(create_skill_tools(skills))
        return tools

    def _toolset(self):
        if self._tools is None:
            self._tools = self._build_tools()
        return self._tools

    def retool(self) -> dict:
        """A new agent interaction: tools rebuilt from the current config, fresh tracker and lock."""
        os.environ["HOME"] = self.home
        try:
            self._tools = self._build_tools()
        except Exception as exc:
            return error_of(exc)
        return result_of(list(self._tools))

    def workspace_call(self, method: str, args: list, identity: bool = False) -> dict:
        """A Workspace method or property by its upstream name (getInfo, setToolsConfig, status ...).
        identity (capability instance_identity): the answer as the label of the object it is."""
        os.environ["HOME"] = self.home
        target = (INSTANCE_METHODS.get(method) if identity else None) or WORKSPACE_METHODS.get(method)
        if target is None:
            return {"kind": "error", "message": f"workspace.{method} is not supported by wsref", "code": None,
                    "name": "TypeError"}
        call_args = self._named_contexts(with_host_functions(from_json(list(args)), self.hook_log))
        try:
            output = target(self, *call_args)
        except Exception as exc:
            return error_of(exc)
        return result_of(self._instance_label(output) if identity else output)

    def _named_contexts(self, value):
        """Capability shared_request_context: {"$requestContext": NAME, "values"?} is the session's one
        request context of that name (made from values on first use), the same object every time."""
        if isinstance(value, list):
            return [self._named_contexts(v) for v in value]
        if not isinstance(value, dict):
            return value
        if isinstance(value.get("$requestContext"), str):
            name = value["$requestContext"]
            extra = sorted(set(value) - {"$requestContext", "values"})
            if extra:
                raise ValueError(f"$requestContext {name}: unknown keys {', '.join(extra)}")
            values = value.get("values")
            if values is not None and not isinstance(values, dict):
                raise ValueError(f"$requestContext {name}: values must be an object")
            if name in self.contexts:
                if values is not None:
                    raise ValueError(f"$requestContext {name}: values are given on its first use only")
                return self.contexts[name]
            self.contexts[name] = dict(values or {})
            return self.contexts[name]
        return {k: self._named_contexts(v) for k, v in value.items()}

    def _instance_label(self, value):
        """Capability instance_identity: {"$instance": n}, n numbering the distinct objects shown, from 1
        in order of first appearance; None stays None. The objects are held, so an id is never reused."""
        if value is None:
            return None
        if id(value) not in self.instances:
            self.instances[id(value)] = (value, len(self.instances) + 1)
        return {"$instance": self.instances[id(value)][1]}

    def tools(self) -> list[dict]:
        return [{"name": t.name, "description": t.description, "inputSchema": t.input_schema,
                 "requireApproval": t.require_approval} for t in self._toolset().values()]

    def call(self, tool: str, args: dict, writer: bool = False, agentContext: bool = True,
             requestContext: dict | None = None, abortAfterMs: float | None = None,
             tracing: str | None = None) -> dict:
        """writer: the context gets a writer and the Result carries the chunks written to it (capability
        tool_writer); agentContext false: the call has no agent context, so no toolCallId; tracing
        ("tracing" or "tracingContext", capability tool_tracing): a recording parent span there, and the
        Result carries the child spans the tool started."""
        if tracing not in (None, "tracing", "tracingContext"):
            raise ValueError(f'tracing must be "tracing" or "tracingContext", not {tracing!r}')
        os.environ["HOME"] = self.home
        chunks: list | None = [] if writer else None
        spans: list | None = [] if tracing else None
        try:
            bound = self._toolset().get(tool)
            if bound is None:
                raise KeyError(f"no tool named {tool!r}")
            call_id = _next_tool_call_id()
            bound.tool_call_id = call_id if agentContext else None
            bound.writer = chunks.append if chunks is not None else None
            bound.tracing = {tracing: {"currentSpan": RecordingSpan(spans)}} if tracing else None
            # capability call_request_context: this call's own request context (a new object per call,
            # as the bridge builds a RequestContext per call), or with shared_request_context the
            # session's named one, the same object as in `workspace` arguments
            given = requestContext if requestContext is not None else self.request_context
            bound.request_context = (self._named_contexts(given) if isinstance(given.get("$requestContext"), str)
                                     else dict(given))
            bound.abort_signal = None
            if abortAfterMs is not None:  # capability call_abort: the call's abortSignal fires n ms after
                import threading          # the call starts, also when the call has returned by then
                from ..js.abort import AbortSignal
                bound.abort_signal = AbortSignal()
                timer = threading.Timer(abortAfterMs / 1000, bound.abort_signal.abort)
                timer.daemon = True
                timer.start()
            output = bound.execute(args)
            result = result_of(output, bound.to_model_output(output))
        except Exception as exc:  # a tool that throws is a result, not a fault
            result = error_of(exc)
        if chunks is not None:
            result["chunks"] = to_json(chunks)
        if spans is not None:
            result["spans"] = to_json(spans)
        return result

    def needs_approval(self, tool: str, args: dict) -> dict:
        """Capability approval_fn: the tool's needsApprovalFn on these args (null when it has none)."""
        bound = self._toolset().get(tool)
        if bound is None:
            raise KeyError(f"no tool named {tool!r}")
        try:
            return result_of(bound.needs_approval(args))
        except Exception as exc:
            return error_of(exc)

    def calls(self, calls: list[dict]) -> list[dict]:
        """Capability concurrent_calls: the calls start together, in order. Each next call starts once
        the previous one has queued on the write lock (or finished), as the upstream's calls, started
        back to back in one event loop, reach the lock in the order they were made."""
        import threading
        results: list = [None] * len(calls)
        lock = next(iter(self._toolset().values())).lock
        threads = []
        for i, call in enumerate(calls):
            def run(i=i, call=call):
                results[i] = self.call(call["tool"], call.get("args", {}))
            queued = lock.queued
            thread = threading.Thread(target=run, daemon=True)
            thread.start()
            lock.wait_queued(queued, thread)
            threads.append(thread)
        for thread in threads:
            thread.join()
        return results

    def fs(self, method: str, args: list) -> dict:
        os.environ["HOME"] = self.home
        fs = self.workspace.filesystem
        if method in ("walk", "grep") and callable(getattr(fs, method, None)):  # the native_fs provider's
            given = from_json(list(args))
            try:
                if method == "walk":
                    return result_of(fs.walk(given[0], **(given[1] if len(given) > 1 and given[1] else {})))
                return result_of(fs.grep(given[0]))
            except Exception as exc:
                return error_of(exc)
        if method not in FS_METHODS:
            return {"kind": "error", "message": f"filesystem.{method} is not a function", "code": None,
                    "name": "TypeError"}
        name, params = FS_METHODS[method]
        kwargs = {}
        for param, value in zip(params, from_json(list(args))):
            if param == "options":
                kwargs.update(value or {})
            else:
                kwargs["input_path" if param == "path" else param] = value
        try:
            return result_of(getattr(fs, name)(**kwargs))
        except Exception as exc:
            return error_of(exc)

    def agent(self, params: dict) -> dict:
        """Capability agent_loop: the agent-loop model over this workspace (agent_loop.py)."""
        from .agent_loop import run_agent
        os.environ["HOME"] = self.home
        return run_agent(self, params)

    def group(self, calls: list) -> list:
        """Capability concurrent_calls: the calls issued together, one thread each; Results in order."""
        import threading
        import time
        results: list = [None] * len(calls)

        def run(i, call):
            results[i] = self.call(call.get("tool"), call.get("args", {}))

        threads = [threading.Thread(target=run, args=(i, c), daemon=True) for i, c in enumerate(calls)]
        for t in threads:
            # Upstream each call runs synchronously up to its first await, in the order given; a
            # short stagger keeps that order here (the calls still overlap).
            t.start()
            time.sleep(0.02)
        for t in threads:
            t.join(60)  # the adapter's own timeout ends a hang first
        return results

    def close(self) -> None:
        self.in_process_env(self._close)

    def _close(self) -> None:
        try:
            self.workspace.destroy()
        finally:
            for sandbox in self.resolved_sandboxes:
                try:
                    sandbox.destroy()
                except Exception:
                    pass
            date.reset()  # capability clock_control: the next session starts on the real clock


def _published_skill_source(root: str, spec: dict):
    """Capability published_skills: the skill in root/<published> published into an in-memory blob store
    and served back by a VersionedSkillSource, created at versionCreatedAt."""
    import datetime
    from ..skills.blob_store import InMemoryBlobStore
    from ..skills.local_skill_source import LocalSkillSource
    from ..skills.publish import publish_skill_from_source
    from ..skills.versioned_skill_source import VersionedSkillSource
    if set(spec) != {"published", "versionCreatedAt"}:
        raise ValueError("workspace.skillSource {published} must be {published: <folder in the root>, "
                         "versionCreatedAt: <ISO time>}")
    store = InMemoryBlobStore()
    tree = publish_skill_from_source(LocalSkillSource(basePath=root), spec["published"], store)["tree"]
    created = datetime.datetime.fromisoformat(spec["versionCreatedAt"].replace("Z", "+00:00"))
    return VersionedSkillSource(tree, store, created)


def _plain(value):
    """JSON's view of a config holding functions: a function property is left out, in a list it is null."""
    if callable(value):
        return None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if not callable(v)}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _defined(value: dict) -> dict:
    """An object's undefined (None) properties left out, as JSON.stringify leaves them out."""
    return {k: v for k, v in value.items() if v is not None}


def _fs(s):
    fs = s.workspace.filesystem
    if fs is None:
        raise AttributeError("workspace.filesystem is undefined")
    return fs



# The `workspace` step's methods and properties, by their upstream (dotted) names.
WORKSPACE_METHODS = {
    "id": lambda s: s.workspace.id,
    "name": lambda s: s.workspace.name,
    "status": lambda s: s.workspace.status,
    "createdAt": lambda s: s.workspace.createdAt,
    "lastAccessedAt": lambda s: s.workspace.lastAccessedAt,
    "init": lambda s: s.workspace.init(),
    "stop": lambda s: s.workspace.stop(),
    "destroy": lambda s: s.workspace.destroy(),
    "getInfo": lambda s, options=None: s.workspace.get_info(options),
    "getInstructions": lambda s, opts=None: s.workspace.get_instructions(opts),
    "getInstructionsAsync": lambda s, opts=None: s.workspace.get_instructions_async(opts),
    # The static providers; undefined (null) for a resolver. wsref shows no instance as JSON.
    "filesystem": lambda s: _no_instance(s.workspace.filesystem),
    "sandbox": lambda s: _no_instance(s.workspace.sandbox),
    "hasSandboxResolver": lambda s: s.workspace.has_sandbox_resolver(),
    "hasSandboxCacheKey": lambda s: s.workspace.has_sandbox_cache_key(),
    "getToolsConfig": lambda s: _plain(s.workspace.get_tools_config()),
    "setToolsConfig": lambda s, config=None: s.workspace.set_tools_config(config),
    "hasFilesystemConfig": lambda s: s.workspace.has_filesystem_config(),
    "hasSandboxConfig": lambda s: s.workspace.has_sandbox_config(),
    "id.length": lambda s: _js_length(s.workspace.id),
    "name.length": lambda s: _js_length(s.workspace.name),
    "id.slice": lambda s, *a: _js_slice(s.workspace.id, *a),
    "name.slice": lambda s, *a: _js_slice(s.workspace.name, *a),
    "operationTimeout": lambda s: None,  # not a Workspace property upstream: undefined
    "index": lambda s, path, content, options=None: s.workspace.index(path, content, options),
    "search": lambda s, query, options=None: s.workspace.search(query, options),
    "rebuildSearchIndex": lambda s, paths=None: s.workspace.rebuild_search_index(paths),
    # Provider instances are not shown as JSON by wsref; only "none configured" (undefined) is.
    "resolveFilesystem": lambda s, opts=None: _no_instance(s.workspace.resolve_filesystem(opts)),
    "resolveSandbox": lambda s, opts=None: _no_instance(s.workspace.resolve_sandbox(opts)),
    "clearSandboxCache": lambda s, key=None: s.workspace.clear_sandbox_cache(key),
    "canBM25": lambda s: s.workspace.can_bm25,
    "canVector": lambda s: s.workspace.can_vector,
    "canHybrid": lambda s: s.workspace.can_hybrid,
    # A WorkspaceSkills instance has only private fields: JSON shows it as {}.
    "skills": lambda s: None if s.workspace.skills is None else {},
    # a skill holds only the front matter keys its SKILL.md has (a null one as None): nothing to leave out
    "skills.list": lambda s: s.workspace.skills.list(),
    "skills.get": lambda s, name: s.workspace.skills.get(name),
    "skills.has": lambda s, name: s.workspace.skills.has(name),
    "skills.search": lambda s, query, options=None: [_defined(r) for r in s.workspace.skills.search(query, options)],
    "skills.getReference": lambda s, name, path: s.workspace.skills.get_reference(name, path),
    "skills.getScript": lambda s, name, path: s.workspace.skills.get_script(name, path),
    "skills.getAsset": lambda s, name, path: s.workspace.skills.get_asset(name, path),
    "skills.listReferences": lambda s, name: s.workspace.skills.list_references(name),
    "skills.listScripts": lambda s, name: s.workspace.skills.list_scripts(name),
    "skills.listAssets": lambda s, name: s.workspace.skills.list_assets(name),
    "skills.refresh": lambda s: s.workspace.skills.refresh(),
    "skills.maybeRefresh": lambda s, context=None: s.workspace.skills.maybe_refresh(context),
    "filesystem.status": lambda s: _fs(s).status,
    "filesystem.basePath": lambda s: _fs(s).basePath,
    "filesystem.getInfo": lambda s: _defined(_fs(s).get_info()),
    "filesystem.getInstructions": lambda s, opts=None: _fs(s).get_instructions(opts),
    "filesystem.allowedPaths": lambda s: list(_fs(s).allowedPaths),
    "filesystem.setAllowedPaths": lambda s, paths: _fs(s).set_allowed_paths(paths),
    "filesystem.id.slice": lambda s, *a: _js_slice(_fs(s).id, *a),
    "filesystem.id.length": lambda s: _js_length(_fs(s).id),
    "sandbox.id.slice": lambda s, *a: _js_slice(_sandbox(s).id, *a),
    "sandbox.id.length": lambda s: _js_length(_sandbox(s).id),
    "filesystem.name": lambda s: _fs(s).name,
    # The optional native walk/grep: LocalFilesystem 1.71.0 has neither (undefined -> null).
    "filesystem.walk": lambda s: getattr(_fs(s), "walk", None),
    "filesystem.grep": lambda s: getattr(_fs(s), "grep", None),
    "sandbox.status": lambda s: _sandbox(s).status,
    "sandbox.provider": lambda s: _sandbox(s).provider,
    "filesystem.provider": lambda s: _fs(s).provider,
    "sandbox.getInstructions": lambda s: _sandbox(s).get_instructions(),
    "sandbox.setEnv": lambda s, update: _sandbox(s).set_env(update),
    "mastra.shutdown": lambda s: _mastra_shutdown(s),
    "clock.advance": lambda s, ms: _clock_advance(ms),
    "mastra.removeWorkspace": lambda s, id, options=None: _mastra_remove(s, id, options),
    "lsp.root": lambda s: s.workspace.lsp.root,
    "sandbox.processes.list": lambda s: [_defined(p) for p in _sandbox(s).processes.list()],
}
WORKSPACE_METHODS.update(API_METHODS)  # LocalSandbox as an API: server/api_methods.py

# Capability instance_identity: the methods whose answer is a provider instance, unrendered.
INSTANCE_METHODS = {
    "filesystem": lambda s: s.workspace.filesystem,
    "sandbox": lambda s: s.workspace.sandbox,
    "resolveFilesystem": lambda s, opts=None: s.workspace.resolve_filesystem(opts),
    "resolveSandbox": lambda s, opts=None: s.workspace.resolve_sandbox(opts),
    "lsp": lambda s: s.workspace.lsp,
}


_tool_calls = iter(range(1, 1 << 62))


def _next_tool_call_id() -> str:
    """The call's toolCallId, numbered per process as the bridge numbers them (wsconf-call-<n>)."""
    return f"wsconf-call-{next(_tool_calls)}"


def _clock_advance(ms) -> None:
    """Capability clock_control: Date.now() reads ms later from now on (until the session closes)."""
    if not isinstance(ms, int) or isinstance(ms, bool) or ms < 0:
        raise ValueError("clock.advance takes a non-negative whole number of milliseconds")
    date.advance(ms)


def _mastra_shutdown(s):
    """Capability mastra_registry: Mastra.shutdown() stops every registered workspace (this one, until removed)."""
    if not getattr(s, "_unregistered", False):
        s.workspace.stop()
    return None


def _mastra_remove(s, id, options=None) -> bool:
    """Mastra.removeWorkspace(id, {destroy}): false for an id not registered; destroy only when asked."""
    if getattr(s, "_unregistered", False) or id != s.workspace.id:
        return False
    if (options or {}).get("destroy"):
        s.workspace.destroy()
    s._unregistered = True
    return True


def _no_instance(value):
    if value is not None:
        raise TypeError("wsref does not show a provider instance as JSON")
    return None


def _js_length(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _js_slice(text: str, start=0, end=None) -> str:
    """String.prototype.slice on UTF-16 units (integer arguments)."""
    units = text.encode("utf-16-le", "surrogatepass")
    n = len(units) // 2
    start = max(n + start, 0) if start < 0 else min(start, n)
    end = n if end is None else (max(n + end, 0) if end < 0 else min(end, n))
    return units[2 * start:2 * max(end, start)].decode("utf-16-le", "surrogatepass")


def open_session(root: str, home: str, workspace: dict):
    """A Session, or the error Result when building the workspace throws (e.g. duplicate tool names)."""
    os.environ["HOME"] = home  # allowedPaths like "~" expand when the filesystem is built
    # Capability process_cwd: the workspace is built with the process's working directory at processCwd
    # too (LocalSandbox's default workingDirectory is <cwd>/.sandbox); the requests then run there.
    process_cwd = workspace.get("processCwd") if isinstance(workspace, dict) else None
    previous = os.getcwd() if isinstance(process_cwd, str) else None
    # Capability process_path: PATH too (where the isolation detection looks for bwrap).
    process_path = workspace.get("processPath") if isinstance(workspace, dict) else None
    previous_path = os.environ.get("PATH")
    try:
        if previous is not None:
            os.chdir(process_cwd)
        if isinstance(process_path, str):
            os.environ["PATH"] = process_path
        session = Session(root, home, workspace)
        session._toolset()
        return session
    except Exception as exc:
        return error_of(exc)
    finally:
        if previous is not None:
            os.chdir(previous)
        if isinstance(process_path, str):
            _put_env("PATH", previous_path)


def _put_env(name: str, value: str | None) -> None:
    """Put an environment variable back as it was: set, or absent (None)."""
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def dependencies() -> dict[str, str]:
    """The libraries whose versions decide outputs: the AST engine, and the runtime."""
    import platform
    from importlib.metadata import PackageNotFoundError, version
    found = {"python": platform.python_version()}
    try:
        found["ast-grep-py"] = version("ast-grep-py")
    except PackageNotFoundError:
        pass
    return found


def runtime_dir() -> str:
    """Capability runtime_dir: the folder of the runtime executable running the sandbox (the one
    LocalSandbox binds into bwrap when no default bind covers it)."""
    return os.path.dirname(sys.executable)


def hello() -> dict:
    return {"protocol": 1, "implementation": IMPLEMENTATION, "version": __version__,
            "capabilities": list(CAPABILITIES), "dependencies": dependencies(), "runtimeDir": runtime_dir()}
