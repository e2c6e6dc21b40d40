"""Tool input validation the way Mastra's validateToolInput with zod v4 does it.

Bad input is returned (not thrown) as `{error: true, message, validationErrors}`; the message
lists zod's issue texts and the arguments as JSON.stringify(args, null, 2) cut at 200 UTF-16 units.
Null values count as absent (Mastra strips them and validates again).
"""
from __future__ import annotations

import json
import re

NUMERIC_STRING = re.compile(r"^-?\d+(?:\.\d+)?$")
MAX_SAFE_INTEGER = 9007199254740991


def js_type_name(value) -> str:
    """What zod prints after `received`."""
    if value is None:
        return "undefined"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "NaN" if value != value else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _js_json(value, indent=2) -> str:
    """JSON.stringify(value, null, 2): integral floats print without '.0'."""
    def norm(v):
        if isinstance(v, float) and v.is_integer() and abs(v) < 1e21:
            return int(v)
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        if isinstance(v, list):
            return [norm(x) for x in v]
        return v
    return json.dumps(norm(value), indent=indent, ensure_ascii=False)


def truncate_for_logging(data, max_length: int = 200) -> str:
    text = _js_json(data)
    units = text.encode("utf-16-le", "surrogatepass")
    if len(units) // 2 <= max_length:
        return text
    return units[: max_length * 2].decode("utf-16-le", "surrogatepass") + "... (truncated)"


def _issue(value, spec: dict) -> str | None:
    """zod's first complaint about one field, or None."""
    kind = spec.get("type")
    if isinstance(kind, list):  # nullable: ["number", "null"]
        kind = next((k for k in kind if k != "null"), None)
    if "enum" in spec:
        if value not in spec["enum"]:
            return "Invalid option: expected one of " + "|".join(json.dumps(v, ensure_ascii=False) for v in spec["enum"])
        return None
    if kind == "string" and not isinstance(value, str):
        return f"Invalid input: expected string, received {js_type_name(value)}"
    if kind == "boolean" and not isinstance(value, bool):
        return f"Invalid input: expected boolean, received {js_type_name(value)}"
    if kind in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            return f"Invalid input: expected number, received {js_type_name(value)}"
        if kind == "integer" and not float(value).is_integer():
            return "Invalid input: expected int, received number"
        if "minimum" in spec and value < spec["minimum"]:
            return f"Too small: expected number to be >={_num(spec['minimum'])}"
        if "maximum" in spec and value > spec["maximum"]:
            return f"Too big: expected number to be <={_num(spec['maximum'])}"
    return None


def _num(x) -> str:
    return str(int(x)) if float(x).is_integer() else repr(x)


def validate_input(tool, args) -> dict:
    """The validated arguments (defaults applied, numbers as ints where integral), or the error object."""
    schema = tool.input_schema
    provided = {} if args is None else args
    data = {k: v for k, v in provided.items() if v is not None}
    for key in getattr(tool, "coerce_numeric", ()):  # z.preprocess(coerceNumericString) fields
        value = data.get(key)
        if isinstance(value, str) and NUMERIC_STRING.match(value.strip()):
            data[key] = float(value.strip()) if "." in value else int(value.strip())
    issues: list[tuple[str, str]] = []
    out = {}
    for key, spec in schema.get("properties", {}).items():
        if key not in data:
            if key in schema.get("required", []):
                issues.append((key, f"Invalid input: expected {_expected(spec)}, received undefined"))
            elif "default" in spec:
                out[key] = spec["default"]
            continue
        problem = _issue(data[key], spec)
        if problem:
            issues.append((key, problem))
        else:
            value = data[key]
            out[key] = int(value) if isinstance(value, float) and value.is_integer() and spec.get("type") == "integer" else value
    if issues:
        lines = "\n".join(f"- {k}: {m}" for k, m in issues)
        fields = {}
        for k, m in issues:
            fields.setdefault(k, {"errors": [], "fields": {}})["errors"].append(m)
        return {"error": True,
                "message": (f"Tool input validation failed for {tool.id}. Please fix the following errors and try "
                            f"again:\n{lines}\n\nProvided arguments: {truncate_for_logging(provided)}"),
                "validationErrors": {"errors": [], "fields": fields}}
    return out


def _expected(spec: dict) -> str:
    kind = spec.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "unknown")
    if "enum" in spec and kind is None:
        return "string"
    return {"integer": "number"}.get(kind, kind or "unknown")
