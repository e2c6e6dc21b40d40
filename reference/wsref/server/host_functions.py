"""The closed vocabulary of host functions a case can put in the tools config (spec/protocol.md).

JSON cannot carry functions, so `{"$hook": "record"}` or `{"$fn": "contextEquals", ...}` name one;
this turns them into Python callables with the upstream's call shapes.
"""
from __future__ import annotations

from .wire import to_json


class HostFunctionError(Exception):
    js_name = "Error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def is_host_function(value) -> bool:
    return isinstance(value, dict) and ("$hook" in value or "$fn" in value)


def build(spec: dict, log: list, where: str):
    if "$hook" in spec:
        kind = spec["$hook"]
        if kind == "record":
            def record(ctx):
                entry = {"hook": where, "toolName": ctx["toolName"], "workspaceToolName": ctx["workspaceToolName"],
                         "input": ctx["input"]}
                if where == "afterToolCall":
                    entry["output"] = ctx.get("output")
                    err = ctx.get("error")
                    entry["error"] = None if err is None else (getattr(err, "message", None) or str(err))
                if spec.get("context") is True:  # capability context_probes: the keys it was handed, in
                    entry["keys"] = list(ctx)     # order, and its context's request context
                    rc = (ctx.get("context") or {}).get("requestContext")
                    entry["requestContext"] = None if rc is None else to_json(dict(rc))
                log.append(entry)
                return None
            return record
        if kind == "skip":
            def skip(ctx):
                log.append({"hook": where, "toolName": ctx["toolName"], "workspaceToolName": ctx["workspaceToolName"],
                            "input": ctx["input"]})
                return {"proceed": False, "output": spec.get("output")}
            return skip
        if kind == "throw":
            def fail(ctx):
                raise HostFunctionError(spec.get("message", "hook failed"))
            return fail
        if kind == "sleep":  # logs like record, then holds the call (inside the write lock) for ms
            def sleep(ctx):
                import time
                log.append({"hook": where, "toolName": ctx["toolName"], "workspaceToolName": ctx["workspaceToolName"],
                            "input": ctx["input"]})
                ms = spec.get("ms")
                path = (ctx.get("input") or {}).get("path") if isinstance(ctx.get("input"), dict) else None
                if isinstance(spec.get("pathMs"), dict) and isinstance(path, str) and path in spec["pathMs"]:
                    ms = spec["pathMs"][path]  # pathMs: {path: ms} overrides ms for that input.path
                time.sleep(min(float(ms or 0), 10_000) / 1000)
                return None
            return sleep
    else:
        kind = spec["$fn"]
        if kind == "const":
            return lambda ctx: spec["value"]
        if kind == "contextEquals":
            return lambda ctx: (ctx.get("requestContext") or {}).get(spec["key"]) == spec["value"]
        if kind == "mergeEnv":  # setEnv's updater: env => ({...env, ...spec.env})
            return lambda env: {**env, **spec["env"]}
        if kind == "omitEnv":  # setEnv's updater that drops keys: env => env without spec.keys
            return lambda env: {k: v for k, v in env.items() if k not in spec["keys"]}
        if kind == "argStartsWith":
            return lambda ctx: isinstance((ctx.get("args") or {}).get(spec["arg"]), str) and \
                ctx["args"][spec["arg"]].startswith(spec["prefix"])
        if kind == "recordCall":  # logs {hook: <key>, args: [...the call's arguments]}
            def record_call(*args):
                log.append({"hook": where, "args": to_json(list(args))})
                return None
            return record_call
        if kind == "recordContext":  # capability context_probes: logs what a config function is handed
            def record_context(ctx=None):
                ctx = ctx or {}
                rc, workspace = ctx.get("requestContext"), ctx.get("workspace")
                log.append({"hook": where, "keys": list(ctx),
                            "requestContext": None if rc is None else to_json(dict(rc)),
                            "workspace": getattr(workspace, "id", None)})
                return spec.get("value")
            return record_context
        if kind == "contextValue":  # ({requestContext}) => requestContext.get(key)
            def context_value(ctx=None):  # `default`: the value when the context is missing or lacks the key
                rc = (ctx or {}).get("requestContext")
                if spec.get("log") is True:  # `log`: whether the call got a request context, and which
                    log.append({"hook": where, "requestContext": None if rc is None else dict(rc)})
                value = (rc or {}).get(spec["key"])
                return spec.get("default") if value is None else value
            return context_value
        if kind == "async":  # async () => value: a settled Promise the caller awaits
            from ..js.promise import Promise
            return lambda *args: Promise(spec.get("value"))
        if kind == "classRef":  # the provider class itself, not an instance
            from ..filesystem.local_filesystem import LocalFilesystem
            from ..sandbox import LocalSandbox
            return {"LocalFilesystem": LocalFilesystem, "LocalSandbox": LocalSandbox}[spec["class"]]
        if kind == "lifecycleHook":
            return _lifecycle_hook(spec, log, where)
        if kind == "composeStart":  # setOnStart's updater: previous "before" (run it first) or "ignore"
            hook = _lifecycle_hook(spec.get("hook") or {}, log, (spec.get("hook") or {}).get("label", "onStart"))

            def update(previous):
                log.append({"hook": "setOnStart", "hadPrevious": callable(previous)})

                def composed(args):
                    if spec.get("previous") == "before" and previous is not None:
                        previous(args)
                    hook(args)
                return composed
            return update
        if kind == "appendItems":  # an updater: prev => [...prev, ...items] (setAllowedPaths)
            return lambda prev: [*prev, *spec["items"]]
        if kind == "extendInstructions":  # ({defaultInstructions, requestContext}) => default + text [+ value]
            def extend(ctx):
                text = ctx["defaultInstructions"] + spec["text"]
                if "key" in spec:
                    rc = ctx.get("requestContext")
                    text += "(no requestContext)" if rc is None else _js_string(rc.get(spec["key"]))
                return text
            return extend
        if kind == "startsWith":  # a predicate on a plain string (e.g. read_file's mediaTypes)
            return lambda value: isinstance(value, str) and value.startswith(spec["prefix"])
        if kind == "onMount":  # capability sandbox_mounts: logs its arguments, returns results[mountPath]
            def on_mount(args):
                fs, sandbox, workspace = args["filesystem"], args.get("sandbox"), args.get("workspace")
                log.append({"hook": "onMount", "mountPath": args["mountPath"], "filesystem": fs.id,
                            "provider": fs.provider, "config": to_json(args.get("config")),
                            "sandbox": getattr(sandbox, "id", None), "workspace": getattr(workspace, "id", None)})
                results = spec.get("results") if isinstance(spec.get("results"), dict) else {}
                return results.get(args["mountPath"])  # absent: None, the default mount
            return on_mount
        if kind == "throw":
            def fail_fn(ctx):
                raise HostFunctionError(spec.get("message", "config function failed"))
            return fail_fn
    raise ValueError(f"unknown host function {spec!r} at {where}")


def _lifecycle_hook(spec: dict, log: list, where: str):
    """A sandbox lifecycle hook: logs {hook: label, sandboxId, status, outcome} (and the workspace's
    status as the hook runs, with workspaceStatus: true), waits delayMs, runs `run`
    through the sandbox it was handed ({hook: label.ran, exitCode, stdout}), logs {hook: label.done}; the
    first `failTimes` calls then raise Error(message)."""
    label = spec.get("label", where)
    calls = [0]

    def hook(args):
        import time
        calls[0] += 1
        sandbox = (args or {}).get("sandbox")
        entry = {k: v for k, v in {"hook": label, "sandboxId": getattr(sandbox, "id", None),
                                    "status": getattr(sandbox, "status", None),
                                    "outcome": (args or {}).get("outcome")}.items() if v is not None}
        if spec.get("workspaceStatus") is True:  # the session's workspace, as the hook runs
            entry["workspaceStatus"] = log.workspace.status if getattr(log, "workspace", None) else None
        log.append(entry)
        if spec.get("delayMs"):
            time.sleep(min(float(spec["delayMs"]), 10_000) / 1000)
        if isinstance(spec.get("run"), str):
            result = sandbox.execute_command(spec["run"])
            log.append({"hook": f"{label}.ran", "exitCode": result["exitCode"], "stdout": result["stdout"]})
        log.append({"hook": f"{label}.done"})
        if calls[0] <= int(spec.get("failTimes") or 0):
            raise HostFunctionError(spec.get("message", f"{label} failed"))
    return hook


def _js_string(value) -> str:
    """String(value) for the JSON values a request context holds."""
    if value is None:
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class HookLog(list):
    """A session's hook log; it knows the session's workspace (set once built), so a hook can log its status."""
    workspace = None


def with_host_functions(value, log: list, where: str = "tools"):
    if is_host_function(value):
        return build(value, log, where)
    if isinstance(value, list):
        return [with_host_functions(v, log, where) for v in value]
    if isinstance(value, dict):
        return {k: with_host_functions(v, log, k) for k, v in value.items()}
    return value
