"""Tool input validation the way Mastra's validateToolInput with zod v4 does it.

Upstream this is outside workspace/ (core/src/tools/validation.ts and zod); the tools need it whole.

Bad input is returned (not thrown) as `{error: true, message, validationErrors}`; the message
lists zod's issue texts and the arguments as JSON.stringify(args, null, 2) cut at 200 UTF-16 units.

validateToolInput validates the input as given first. When that fails, it strips the null values
that caused issues (or every null, when none did) and validates again; if the retry passes its
data is used, otherwise the issues of the FIRST pass are reported. So an optional field sent as
null is accepted, but when the call fails for another reason the null field is listed too, as
"received null". Fields whose schema is nullable (execute_command's timeout, cwd, tail) accept
null in the first pass already.

The checks follow zod v4's messages for the JSON-Schema shapes the workspace tools use: string,
boolean, number, integer (zod's int(): "expected int", with the safe-integer range as its own
"Too big/small: expected int" issue before any .min()/.max()), enum, array, unions (`anyOf`, a
bare "Invalid input") and nullable types (`type: [X, "null"]`, or `anyOf` with a null branch).
Fields wrapped in z.preprocess(coerceNumericString) (Tool.coerce_numeric) take "10" as 10.
"""
from __future__ import annotations

import json
import math
import re

from .js.strings import js_number, js_trim

NUMERIC_STRING = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")   # /^-?\d+(?:\.\d+)?$/ (fullmatch: no newline before $)
MAX_SAFE_INTEGER = 9007199254740991
_ABSENT = object()
_LONE_SURROGATE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")


def js_type_name(value) -> str:
    """What zod prints after `received` for a value that is present (None is JSON null)."""
    if value is _ABSENT:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "NaN" if value != value else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _js_json(value, indent: int = 2, level: int = 0) -> str:
    """JSON.stringify(value, null, 2): numbers as JavaScript prints them (1e-7, 100, null for a
    non-finite one), lone surrogates escaped (\ud800), a surrogate pair as is."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return js_number(value) if math.isfinite(value) else "null"
    if isinstance(value, str):
        return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))
    inner, outer = " " * indent * (level + 1), " " * indent * level
    if isinstance(value, dict):
        items = [f"{inner}{_js_json(k)}: {_js_json(v, indent, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{outer}}}" if items else "{}"
    items = [f"{inner}{_js_json(v, indent, level + 1)}" for v in value]
    return "[\n" + ",\n".join(items) + f"\n{outer}]" if items else "[]"


def truncate_for_logging(data, max_length: int = 200) -> str:
    text = _js_json(data)
    units = text.encode("utf-16-le", "surrogatepass")
    if len(units) // 2 <= max_length:
        return text
    return units[: max_length * 2].decode("utf-16-le", "surrogatepass") + "... (truncated)"


_num = js_number


def _branches(spec: dict) -> tuple[list[dict], bool]:
    """The non-null alternatives of a field's schema, and whether null is allowed."""
    if "anyOf" in spec:
        options = [o for o in spec["anyOf"] if o.get("type") != "null"]
        return options, len(options) < len(spec["anyOf"])
    kind = spec.get("type")
    if isinstance(kind, list):
        rest = [k for k in kind if k != "null"]
        base = {k: v for k, v in spec.items() if k != "type"}
        return [{**base, "type": rest[0] if len(rest) == 1 else rest}], len(rest) < len(kind)
    return [spec], False


def _issues(value, spec: dict) -> list[str]:
    """zod's complaints about one present value (None is JSON null)."""
    options, nullable = _branches(spec)
    if value is None and nullable:
        return []
    if len(options) > 1:  # z.union: one bare issue when no option accepts the value
        return [] if any(not _issues(value, o) for o in options) else ["Invalid input"]
    option = options[0]
    if "enum" in option:
        if value not in option["enum"] or isinstance(value, bool) != isinstance(option["enum"][0], bool):
            return ["Invalid option: expected one of " + "|".join(json.dumps(v, ensure_ascii=False)
                                                                for v in option["enum"])]
        return []
    kind = option.get("type")
    if kind == "string":
        return [] if isinstance(value, str) else [f"Invalid input: expected string, received {js_type_name(value)}"]
    if kind == "boolean":
        return [] if isinstance(value, bool) else [f"Invalid input: expected boolean, received {js_type_name(value)}"]
    if kind == "array":
        if not isinstance(value, list):
            return [f"Invalid input: expected array, received {js_type_name(value)}"]
        items = option.get("items")
        return [] if not items or all(not _issues(v, items) for v in value) else ["Invalid input"]
    if kind == "object" and "propertyNames" in option:  # z.record
        return [] if isinstance(value, dict) else [f"Invalid input: expected record, received {js_type_name(value)}"]
    if kind in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            return [f"Invalid input: expected number, received {js_type_name(value)}"]
        out = []
        low, high = option.get("minimum"), option.get("maximum")
        if kind == "integer":
            if not float(value).is_integer():
                return ["Invalid input: expected int, received number"]  # aborts: no range issues
            if value > MAX_SAFE_INTEGER:
                out.append(f"Too big: expected int to be <={MAX_SAFE_INTEGER}")
            elif value < -MAX_SAFE_INTEGER:
                out.append(f"Too small: expected int to be >=-{MAX_SAFE_INTEGER}")
            low = None if low == -MAX_SAFE_INTEGER else low
            high = None if high == MAX_SAFE_INTEGER else high
        if low is not None and value < low:
            out.append(f"Too small: expected number to be >={_num(low)}")
        if option.get("exclusiveMinimum") is not None and value <= option["exclusiveMinimum"]:  # .positive()
            out.append(f"Too small: expected number to be >{_num(option['exclusiveMinimum'])}")
        if high is not None and value > high:
            out.append(f"Too big: expected number to be <={_num(high)}")
        return out
    return []


def _child(path, key) -> tuple:
    return (path if isinstance(path, tuple) else (path,)) + (str(key),)


def _field_issues(value, spec: dict, path) -> list[tuple]:
    """zod's issues for one present field value, with their paths: a nested z.object reports on its
    own fields (`importSpec.names`), a z.array on its items (`names.0`) and its min length."""
    options, nullable = _branches(spec)
    if len(options) == 1 and not (value is None and nullable) and "enum" not in options[0]:
        option = options[0]
        kind = option.get("type")
        if kind == "object" and "properties" in option:
            if not isinstance(value, dict):
                return [(path, f"Invalid input: expected object, received {js_type_name(value)}")]
            out = []
            for key, sub in option["properties"].items():
                if key in value:
                    out += _field_issues(value[key], sub, _child(path, key))
                elif key in option.get("required", []):
                    out.append((_child(path, key), _missing(sub)))
            return out
        if kind == "array" and isinstance(value, list) and option.get("items"):
            out = []
            for i, item in enumerate(value):
                out += _field_issues(item, option["items"], _child(path, i))
            if not out and len(value) < option.get("minItems", 0):
                out.append((path, f"Too small: expected array to have >={option['minItems']} items"))
            return out
    return [(path, m) for m in _issues(value, spec)]


def _missing(spec: dict) -> str:
    options, _ = _branches(spec)
    return "Invalid input" if len(options) > 1 else f"Invalid input: expected {_expected(spec)}, received undefined"


def _expected(spec: dict) -> str:
    options, _ = _branches(spec)
    if len(options) > 1:
        return ""
    option = options[0]
    if "enum" in option and "type" not in option:
        return "string"
    return {"integer": "number"}.get(option.get("type"), option.get("type") or "unknown")


def _coerce_numeric(value):
    """coerceNumericString: a decimal string, trimmed as String.prototype.trim does, becomes
    Number(string), a double (an integral one as a Python int, as JSON would bring it)."""
    if isinstance(value, str) and NUMERIC_STRING.fullmatch(js_trim(value)):
        number = float(js_trim(value))
        return int(number) if number.is_integer() else number
    return value


def _safe_parse(tool, data: dict) -> tuple[list[tuple[str, str]], dict]:
    """One zod safeParse of the input object: (issues in field order, the parsed data)."""
    schema = tool.input_schema
    coerce = set(getattr(tool, "coerce_numeric", ()))
    issues: list[tuple[str, str]] = []
    out = {}
    for key, spec in schema.get("properties", {}).items():
        if key not in data:
            if key in schema.get("required", []):
                options, _ = _branches(spec)
                if len(options) > 1:
                    issues.append((key, "Invalid input"))
                else:
                    issues.append((key, f"Invalid input: expected {_expected(spec)}, received undefined"))
            elif "default" in spec:
                out[key] = spec["default"]
            continue
        value = _coerce_numeric(data[key]) if key in coerce else data[key]
        problems = _field_issues(value, spec, key)
        issues += problems
        if not problems and value is not None:
            if isinstance(value, float) and value.is_integer():
                options, _ = _branches(spec)
                if any(o.get("type") == "integer" for o in options):
                    value = int(value)
            out[key] = value
    return issues, out


def _format_error(tool, issues: list[tuple[str, str]], provided) -> dict:
    lines = "\n".join(f"- {'.'.join(k) if isinstance(k, tuple) else k}: {m}" for k, m in issues)
    fields: dict = {}
    for k, m in issues:
        node = {"fields": fields}
        for part in (k if isinstance(k, tuple) else (k,)):
            node = node["fields"].setdefault(part, {"errors": [], "fields": {}})
        node["errors"].append(m)
    return {"error": True,
            "message": (f"Tool input validation failed for {tool.id}. Please fix the following errors and try "
                        f"again:\n{lines}\n\nProvided arguments: {truncate_for_logging(provided)}"),
            "validationErrors": {"errors": [], "fields": fields}}


def validate_input(tool, args) -> dict:
    """The validated arguments (defaults applied, unknown keys and nulls dropped), or the error object."""
    provided = args
    data = {} if args is None else args
    if not isinstance(data, dict):
        kind = js_type_name(data)
        return {"error": True,
                "message": (f"Tool input validation failed for {tool.id}. Please fix the following errors and try "
                            f"again:\n- root: Invalid input: expected object, received {kind}\n\n"
                            f"Provided arguments: {truncate_for_logging(provided)}"),
                "validationErrors": {"errors": [f"Invalid input: expected object, received {kind}"], "fields": {}}}
    issues, out = _safe_parse(tool, data)
    if not issues:
        return out
    coerced = _coerce_stringified_json(tool, data)
    if coerced is not data:
        coerced_issues, coerced_out = _safe_parse(tool, coerced)
        if not coerced_issues:
            return coerced_out
    failing_nulls = {k for k, _ in issues if _value_at(data, k) is None}
    if failing_nulls:
        stripped = _strip_nulls_at(data, failing_nulls)
    else:
        stripped = {k: _strip_nulls(v) for k, v in data.items() if v is not None}
    retry_issues, retry_out = _safe_parse(tool, stripped)
    if not retry_issues:
        return retry_out
    return _format_error(tool, issues, provided)


def _coerce_stringified_json(tool, data: dict):
    """coerceStringifiedJsonValues: a top-level string given for a z.array / z.object field is
    JSON.parse'd when it starts with '[' / '{' (after trim) and parses to that kind. A z.record
    (index's metadata: an object schema with propertyNames, no properties) is not a ZodObject
    upstream, so its string is left alone."""
    from .js.strings import js_trim
    result = None
    for key, value in data.items():
        spec = tool.input_schema.get("properties", {}).get(key)
        if not isinstance(value, str) or spec is None:
            continue
        options, _ = _branches(spec)
        kind = options[0].get("type") if len(options) == 1 and "enum" not in options[0] else None
        if kind == "object" and "properties" not in options[0]:
            kind = None  # z.record
        opener = {"array": "[", "object": "{"}.get(kind)
        if opener is None or not js_trim(value).startswith(opener):
            continue
        try:
            parsed = json.loads(value, parse_constant=_reject)
        except (ValueError, RecursionError):
            continue
        if isinstance(parsed, list if kind == "array" else dict):
            result = dict(data) if result is None else result
            result[key] = parsed
    return data if result is None else result


def _reject(name):
    raise ValueError(name)  # JSON.parse has no NaN / Infinity


def _value_at(data, path):
    """getValueAtPath: _ABSENT where the path leaves the objects."""
    current = data
    for part in (path if isinstance(path, tuple) else (path,)):
        if isinstance(current, dict):
            current = current.get(part, _ABSENT)
        elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
            current = current[int(part)]
        else:
            return _ABSENT
    return current


def _strip_nulls_at(value, paths: set, here: tuple = ()):
    """stripNullishValuesAtPaths: drop the null properties whose path caused an issue."""
    wanted = {p if isinstance(p, tuple) else (p,) for p in paths}
    if isinstance(value, dict):
        return {k: _strip_nulls_at(v, paths, here + (k,)) for k, v in value.items()
                if not (v is None and here + (k,) in wanted)}
    if isinstance(value, list):
        return [_strip_nulls_at(v, paths, here + (str(i),)) for i, v in enumerate(value)]
    return value


def _strip_nulls(value):
    """stripNullishValues: null properties leave objects (recursively); null array items stay."""
    if isinstance(value, dict):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [None if v is None else _strip_nulls(v) for v in value]
    return value
