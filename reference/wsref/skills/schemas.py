"""SKILL.md parsing and validation (upstream `skills/schemas.ts`, with gray-matter for the front matter)."""
from __future__ import annotations

import json
import re

import yaml

from ..js.strings import js_trim

UNDEFINED = object()  # a front matter key that is absent (None is YAML's null)


# gray-matter's engines as SKILL.md parsing configures them (schemas.ts MATTER_OPTIONS: JavaScript refused)
_ENGINES = ("yaml", "json", "javascript", "js")


def _engine_alias(name: str) -> str:
    """gray-matter's aliase(): a few languages by another name, case-insensitively; any other as given."""
    lower = name.lower()
    if lower in ("js", "javascript"):
        return "javascript"
    if lower in ("coffee", "coffeescript", "cson"):
        return "coffee"
    if lower in ("yaml", "yml"):
        return "yaml"
    return name


def _parse_block(language: str, block: str):
    engine = language if language in _ENGINES else _engine_alias(language)
    if engine not in _ENGINES:
        raise SkillError(f'gray-matter engine "{language}" is not registered')
    if engine in ("js", "javascript"):
        raise SkillError("JavaScript frontmatter is not supported")
    if engine == "json":
        return json.loads(block)
    return yaml.safe_load(block)


def _matter(content: str) -> tuple[dict, str]:
    """gray-matter: a `---` block at the start is front matter (YAML, or the language named right
    after the dashes); the rest is the body."""
    if content.startswith("\ufeff"):
        content = content[1:]
    if content == "" or not content.startswith("---") or content[3:4] == "-":
        return {}, content
    rest = content[3:]
    newline = re.search(r"\r?\n", rest)
    raw = rest[:newline.start()] if newline else rest[:-1]  # str.slice(0, -1) when there is no newline
    language = js_trim(raw) if raw else ""
    if language:
        rest = rest[len(raw):]
    close = rest.find("\n---")
    if close == -1:
        close = len(rest)
    block = rest[:close]
    stripped = re.sub(r"^\s*#[^\n]+", "", block, flags=re.M).strip()
    data = {} if stripped == "" else (_parse_block(language or "yaml", block) or {})
    if close == len(rest):
        body = ""
    else:
        body = rest[close + 4:]
        if body[:1] == "\r":
            body = body[1:]
        if body[:1] == "\n":
            body = body[1:]
    return data if isinstance(data, dict) else {}, body


def _validate(meta: dict, dir_name: str) -> list[str]:
    """validateSkillMetadata's errors (schemas.ts). A key absent from meta is undefined; None is YAML's null."""
    errors = []
    name = meta.get("name", UNDEFINED)
    if not isinstance(name, str):
        errors.append(f"name: Expected string, received {_typeof(name)}")
    elif name == "":
        errors.append("name: Skill name cannot be empty")
    else:
        if len(name) > 64:
            errors.append("name: Skill name must be 64 characters or less")
        if not re.fullmatch(r"[a-z0-9-]+", name):
            errors.append("name: Skill name must contain only lowercase letters, numbers, and hyphens")
        if name.startswith("-") or name.endswith("-"):
            errors.append("name: Skill name must not start or end with a hyphen")
        if "--" in name:
            errors.append("name: Skill name must not contain consecutive hyphens")
    desc = meta.get("description", UNDEFINED)
    if not isinstance(desc, str):
        errors.append(f"description: Expected string, received {_typeof(desc)}")
    elif desc == "":
        errors.append("description: Skill description cannot be empty")
    else:
        if len(desc) > 1024:
            errors.append("description: Skill description must be 1024 characters or less")
        if js_trim(desc) == "":
            errors.append("description: Skill description cannot be only whitespace")
    lic = meta.get("license")
    if lic is not None and not isinstance(lic, str):  # undefined or null: no license
        errors.append(f"license: Expected string, received {_typeof(lic)}")
    inv = meta.get("user-invocable", UNDEFINED)
    if inv is not UNDEFINED and not isinstance(inv, bool):  # null is not undefined here
        errors.append(f"user-invocable: Expected boolean, received {_typeof(inv)}")
    md = meta.get("metadata")
    if md is not None and not isinstance(md, dict):
        errors.append(f"metadata: Expected object, received {'array' if isinstance(md, list) else _typeof(md)}")
    if dir_name and isinstance(name, str) and name != dir_name:
        errors.append(f'Skill name "{name}" must match directory name "{dir_name}"')
    return errors


def _typeof(value) -> str:
    """JavaScript's typeof: null is an object."""
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


class SkillError(Exception):
    js_name = "Error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
