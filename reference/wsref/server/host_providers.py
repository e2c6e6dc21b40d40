"""Host provider resolvers (spec/protocol.md, "Host functions"), as the bridge builds them.

`{"$fn": "filesystemResolver", "options"?, "basePathKey"?}` and `{"$fn": "sandboxResolver",
"options"?, "workingDirectoryKey"?}`: each call logs `{hook, requestContext}` and returns a new
LocalFilesystem / LocalSandbox on the root, or on the folder below it named by a request-context
value. Resolved sandboxes are kept so the session can destroy them on close.
"""
from __future__ import annotations

from ..js import node_path as nodepath


def _below(root: str, request_context, key) -> str:
    if key is None:
        return root
    value = (request_context or {}).get(key)
    return nodepath.join(root, "undefined" if value is None else _js_string(value))


def _js_string(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def filesystem_resolver(spec: dict, root: str, log: list):
    from ..filesystem.local_filesystem import LocalFilesystem
    from .host_functions import with_host_functions
    options = with_host_functions(spec.get("options") or {}, log, "filesystem")

    def resolve(ctx):
        request_context = ctx.get("requestContext") or {}
        log.append({"hook": "filesystemResolver", "requestContext": dict(request_context)})
        if spec.get("returnsNothing") is True:  # a resolver with no filesystem for this request
            return None
        return LocalFilesystem(**{"basePath": _below(root, request_context, spec.get("basePathKey")), **options})
    return _async_if(spec, resolve)


def sandbox_resolver(spec: dict, root: str, log: list, resolved: list):
    from ..sandbox import LocalSandbox
    from .host_functions import with_host_functions
    options = with_host_functions(spec.get("options") or {}, log, "sandbox")
    foreground_only = options.pop("foregroundOnly", None) is True  # capability foreground_sandbox

    memo: dict = {}  # with "memoize": true, one sandbox per working directory

    def resolve(ctx):
        request_context = ctx.get("requestContext") or {}
        log.append({"hook": "sandboxResolver", "requestContext": dict(request_context)})
        if spec.get("returnsNothing") is True:  # a resolver with no sandbox for this request
            return None
        working_directory = _below(root, request_context, spec.get("workingDirectoryKey"))
        if spec.get("memoize") is True and working_directory in memo:
            return memo[working_directory]
        sandbox = LocalSandbox(**{"workingDirectory": working_directory, **options})
        if foreground_only:
            sandbox.processes = None
        resolved.append(sandbox)
        if spec.get("memoize") is True:
            memo[working_directory] = sandbox
        return sandbox
    return _async_if(spec, resolve)


def _async_if(spec: dict, resolve):
    """`"async": true`: the resolver returns a (settled) Promise of its provider."""
    if spec.get("async") is not True:
        return resolve
    from ..js.promise import Promise
    return lambda ctx: Promise(resolve(ctx))
