"""Tool input validation: defaults applied, bad input returned (not thrown) as Mastra's error object."""
from __future__ import annotations

import json


def _type_ok(value, spec: dict) -> bool:
    t = spec.get("type")
    if t == "string":
        return isinstance(value, str)
    if t == "boolean":
        return isinstance(value, bool)
    if t == "integer":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer()
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return True


def validate_input(tool, args) -> dict:
    schema = tool.input_schema
    args = dict(args or {})
    issues = []
    for key in schema.get("required", []):
        if args.get(key) is None:
            issues.append((key, f"Invalid input: expected {schema['properties'][key].get('type')}, received undefined"))
    for key, spec in schema.get("properties", {}).items():
        if key not in args or args[key] is None:
            if "default" in spec:
                args[key] = spec["default"]
            else:
                args.pop(key, None)
            continue
        value = args[key]
        if "enum" in spec and value not in spec["enum"]:
            issues.append((key, "Invalid option: expected one of " + "|".join(json.dumps(v) for v in spec["enum"])))
        elif not _type_ok(value, spec):
            issues.append((key, f"Invalid input: expected {spec.get('type')}, received {type(value).__name__}"))
        elif "minimum" in spec and value < spec["minimum"]:
            issues.append((key, f"Too small: expected number to be >={spec['minimum']}"))
        elif isinstance(value, float) and spec.get("type") == "integer":
            args[key] = int(value)
    if issues:
        lines = "\n".join(f"- {k}: {m}" for k, m in issues)
        return {"error": True, "message": (
            f"Tool input validation failed for {tool.id}. Please fix the following errors and try again:\n"
            f"{lines}\n\nProvided arguments: {json.dumps(args)}")}
    return args
