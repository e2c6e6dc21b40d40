"""The shape of every answer an implementation gives (spec/protocol.md), checked where it arrives.

An answer of the wrong shape (`result: null`, a string where a Result belongs, `open` without
`session`) is the adapter's fault in that case, said in one sentence, instead of an exception deep
in the harness's judging. Only the shape is checked here: what a value holds is the verdict's.
"""
from __future__ import annotations

RESULT_KINDS = ("text", "media", "value", "error")


def _json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value[:60]!r}" + ("..." if len(value) > 60 else "")
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object with " + (", ".join(map(repr, list(value)[:6])) or "no keys")
    return type(value).__name__


def result_problem(value, where: str = "a Result") -> str | None:
    """Why `value` is not a Result ({kind: text|media|value|error, ...}), or None."""
    if not isinstance(value, dict):
        return f"{where} must be an object with `kind`, got {_json_type(value)}"
    kind = value.get("kind")
    if kind not in RESULT_KINDS:
        return f"{where} must have `kind` one of {', '.join(RESULT_KINDS)}, got {_json_type(kind)}"
    if kind == "text" and not isinstance(value.get("value"), str):
        return f"{where} of kind text must have a string `value`, got {_json_type(value.get('value'))}"
    if kind == "media" and not isinstance(value.get("value"), dict):
        return f"{where} of kind media must have an object `value` (text, mediaType, data), got {_json_type(value.get('value'))}"
    if kind == "value" and "value" not in value:
        return f"{where} of kind value must have a `value` (null for undefined)"
    if kind == "error":
        if not isinstance(value.get("message"), str):
            return f"{where} of kind error must have a string `message`, got {_json_type(value.get('message'))}"
        for key in ("code", "name"):
            if value.get(key) is not None and not isinstance(value[key], str):
                return f"{where} of kind error must have `{key}` a string or null, got {_json_type(value[key])}"
    for key in ("chunks", "spans"):
        if key in value and not isinstance(value[key], list):
            return f"{where}'s `{key}` must be a list, got {_json_type(value[key])}"
    return None


def _results(value, where: str) -> str | None:
    if not isinstance(value, list):
        return f"{where} must be a list of Results, got {_json_type(value)}"
    for i, item in enumerate(value):
        problem = result_problem(item, f"{where}[{i}]")
        if problem:
            return problem
    return None


def _open(value) -> str | None:
    if isinstance(value, dict) and "error" in value:
        return result_problem(value["error"], "the `error` of an open that threw")
    if not isinstance(value, dict) or not isinstance(value.get("session"), str) or not value["session"]:
        got = _json_type(value.get("session")) if isinstance(value, dict) else _json_type(value)
        return f"open must answer {{\"session\": \"<id>\"}} or {{\"error\": <Result>}}, got {got}"
    return None


def _tools(value) -> str | None:
    if not isinstance(value, list):
        return f"tools must answer a list of tools, got {_json_type(value)}"
    for i, tool in enumerate(value):
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            return f"tools[{i}] must be an object with a string `name`, got {_json_type(tool)}"
    return None


def _list(value, op: str) -> str | None:
    return None if isinstance(value, list) else f"{op} must answer a list, got {_json_type(value)}"


CHECKS = {
    "open": _open,
    "tools": _tools,
    "call": lambda v: result_problem(v, "the call's Result"),
    "fs": lambda v: result_problem(v, "the fs call's Result"),
    "workspace": lambda v: result_problem(v, "the workspace call's Result"),
    "retool": lambda v: result_problem(v, "retool's Result"),
    "needsApproval": lambda v: result_problem(v, "needsApproval's Result"),
    "agent": lambda v: result_problem(v, "the agent run's Result"),
    "calls": lambda v: _results(v, "the concurrent calls' Results"),
    "group": lambda v: _results(v, "the group's Results"),
    "hookLog": lambda v: _list(v, "hookLog"),
}


def answer_problem(op: str, value) -> str | None:
    """Why the answer to `op` has the wrong shape, or None (ops without a shape: close, shutdown)."""
    check = CHECKS.get(op)
    return check(value) if check else None


def hello_problem(hello) -> str | None:
    """Why a hello answer is malformed: each field by its type (spec/protocol.md `hello`)."""
    if not isinstance(hello, dict):
        return f"hello must answer an object, got {_json_type(hello)}"
    if isinstance(hello.get("protocol"), bool) or not isinstance(hello.get("protocol"), int):
        return f"hello: `protocol` must be a number, got {_json_type(hello.get('protocol'))}"
    for key in ("implementation", "version"):
        if not isinstance(hello.get(key), str) or not hello[key].strip():
            return f"hello: `{key}` must be a non-empty string, got {_json_type(hello.get(key))}"
    capabilities = hello.get("capabilities")
    if not isinstance(capabilities, list) or not all(isinstance(c, str) for c in capabilities):
        return f"hello: `capabilities` must be a list of capability ids (strings), got {_json_type(capabilities)}"
    tools = hello.get("tools")
    if tools is not None and (not isinstance(tools, list) or not all(isinstance(t, str) and t for t in tools)):
        return f"hello: `tools` must be a list of tool names, got {_json_type(tools)}"
    dependencies = hello.get("dependencies")
    if dependencies is not None and (not isinstance(dependencies, dict)
                                     or not all(isinstance(v, str) for v in dependencies.values())):
        return f"hello: `dependencies` must be an object of name: version (strings), got {_json_type(dependencies)}"
    runtime_dir = hello.get("runtimeDir")
    if runtime_dir is not None and not isinstance(runtime_dir, str):
        return f"hello: `runtimeDir` must be a string (a folder), got {_json_type(runtime_dir)}"
    options = hello.get("filesystemOptions")
    if options is not None and not (isinstance(options, dict) and all(
            v is True or isinstance(v, list) for v in options.values())):
        return (f"hello: `filesystemOptions` must be an object of option: true or a list of values, "
                f"got {_json_type(options)}")
    return None
