"""mastra_workspace_ast_edit (upstream `tools/ast-edit.ts`): opt-in, present only when the ast-grep engine is installed.

Upstream (tools/ast-edit.ts) drives @ast-grep/napi; this drives its Python binding, ast-grep-py,
pinned to the same engine version (0.51.0) in pyproject.toml. What the two bindings do differently
and how it is bridged here:

- Node ranges: napi counts `range().start.index` in UTF-16 code units (JS string indices), the
  Python binding in code points (Python string indices). Each slices its own kind of string, so the
  edits land in the same place.
- Errors: napi throws `new Error(chain.join("\\n |->"))` starting at the rule error; the Python
  binding raises RuntimeError("cannot get matcher\\n\\nCaused by:\\n    0: ...") in anyhow's format
  (plus a stack backtrace when RUST_BACKTRACE is set). `napi_message` rebuilds napi's text.
- The Lang enum: napi's `Lang.TypeScript` etc. are the names below; the Python binding takes the
  lower-case language names.

The string work around the engine (import merging, the regexes over an import's text, the
`$VAR` substitution through String.prototype.replace) follows the upstream line by line, with
JavaScript's \\s, \\w and trim() semantics.
"""
from __future__ import annotations

import re

from ..errors import FileNotFoundError_, JsError, WorkspaceReadOnlyError
from .helpers import emit_workspace_metadata
from .base import Tool, ToolContext

AST_EDIT = "mastra_workspace_ast_edit"

ENGINE_VERSION = "0.51.0"  # ast-grep-py here, @ast-grep/napi in tools/mastra-bridge


def engine_available() -> bool:
    """isAstGrepAvailable(): the engine can be loaded."""
    try:
        import ast_grep_py  # noqa: F401
    except ImportError:
        return False
    return True


DESCRIPTION = """Edit code using AST-based analysis for intelligent transformations.

Use `transform` for structured operations (imports, renames). Use `pattern`/`replacement` only for general find-and-replace.

Transforms:
- add-import: Add or merge imports. Skips duplicates. For default imports, put the default name first in `names`.
  { transform: "add-import", importSpec: { module: "react", names: ["useState", "useEffect"] } }
  { transform: "add-import", importSpec: { module: "express", names: ["express"], isDefault: true } }
  { transform: "add-import", importSpec: { module: "express", names: ["express", "Router"], isDefault: true } } \
\u2192 import express, { Router } from 'express'
- remove-import: Remove an import by module name.
  { transform: "remove-import", targetName: "lodash" }
- rename: Rename all occurrences of an identifier (not scope-aware).
  { transform: "rename", targetName: "oldName", newName: "newName" }

Pattern replace (for everything else):
  { pattern: "console.log($ARG)", replacement: "logger.debug($ARG)" }"""

INPUT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "The path to the file to edit"},
        "pattern": {"type": "string", "description": (
            'AST pattern to search for (supports $VARIABLE placeholders, e.g., "console.log($ARG)")')},
        "replacement": {"type": "string", "description": (
            'Replacement pattern (can use captured $VARIABLES, e.g., "logger.debug($ARG)")')},
        "transform": {"type": "string", "enum": ["add-import", "remove-import", "rename"],
                      "description": "Structured transformation to apply"},
        "targetName": {"type": "string", "description": (
            "Required for remove-import and rename transforms. The current name to target.")},
        "newName": {"type": "string", "description": (
            "Required for rename transform. The new name to replace targetName with.")},
        "importSpec": {
            "type": "object",
            "properties": {
                "module": {"type": "string", "description": "Module to import from"},
                "names": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": (
                    "Names to import. For default imports, put the default name first.")},
                "isDefault": {"type": "boolean", "description": "Whether the first name is a default import"},
            },
            "required": ["module", "names"],
            "additionalProperties": False,
            "description": "Required for add-import transform. Specifies the module and names to import.",
        },
    },
    "required": ["path"],
    "additionalProperties": False,
}

NOT_AVAILABLE = "@ast-grep/napi is not available. Install it to use AST editing."
BINARY = "Cannot perform AST edits on binary files. Use the write file tool instead."

# getLanguageFromPath: the extension after the last '.', lower-cased -> ast-grep language.
LANGUAGES = {"ts": "typescript", "tsx": "tsx", "jsx": "tsx", "js": "javascript", "html": "html", "css": "css"}

# JavaScript's \s (WhiteSpace and LineTerminator), which is not Python's.
_WS = "\t\n\x0b\x0c\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_WS_CHARS = frozenset("\t\n\x0b\x0c\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff"
                      + "".join(map(chr, range(0x2000, 0x200B))))
S = f"[{_WS}]"
W = "[A-Za-z0-9_]"  # JavaScript's \w (no u flag)

_TYPE_IMPORT = re.compile(rf"^import{S}+type{S}")
_NAMESPACE_IMPORT = re.compile(rf"^import{S}+\*{S}+as{S}+")
_DEFAULT_IMPORT = re.compile(rf"^import{S}+(?!type{S})(?!\{{)({W}+)")
_NAMED_IMPORTS = re.compile(r"\{([^}]*)\}")
_MODULE_AT_END = re.compile(rf"([\"'][^\"']+[\"']){S}*;?{S}*\Z")
_IMPORT_SOURCE = re.compile(rf"from{S}+['\"]([^'\"]+)['\"]|import{S}+['\"]([^'\"]+)['\"]")
_META_VAR = re.compile(rf"\$({W}+)")
_REGEX_META = re.compile(r"[.*+?^${}()|\[\]\\]")


def _js_trim(s: str) -> str:
    start, end = 0, len(s)
    while start < end and s[start] in _WS_CHARS:
        start += 1
    while end > start and s[end - 1] in _WS_CHARS:
        end -= 1
    return s[start:end]


def language_of(path: str) -> str | None:
    """getLanguageFromPath: filePath.split('.').pop().toLowerCase() (a name without a dot is its own extension)."""
    return LANGUAGES.get(path.split(".")[-1].lower())


# --- the engine -------------------------------------------------------------------------------

def napi_message(exc: BaseException) -> str:
    """The message @ast-grep/napi throws for the error ast-grep-py raised.

    ast-grep-py: 'cannot get matcher\\n\\nCaused by:\\n    0: A\\n    1: B\\n\\nStack backtrace: ...'
    (anyhow's Debug format: causes numbered when there are several, continuation lines indented).
    napi: 'A\\n |->B': the same chain, joined with '\\n |->', without the context line.
    """
    text = str(exc)
    marker = "\n\nCaused by:\n"
    if marker not in text:
        return text
    lines = text.split(marker, 1)[1].split("\n\nStack backtrace:", 1)[0].split("\n")
    numbered = re.compile(r"^ {3,4}\d{1,2}: ")  # '{:>5}: ' before each cause when there are several
    if not numbered.match(lines[0]):  # a single cause: every line indented by four spaces
        return "\n".join(line[4:] for line in lines)
    entries: list[list[str]] = []
    for line in lines:
        if numbered.match(line):
            entries.append([line[7:]])
        else:
            entries[-1].append(line[7:])  # continuation lines: seven spaces
    return "\n |->".join("\n".join(e) for e in entries)


def _find_all(root, rule: dict) -> list:
    try:
        return root.find_all({"rule": rule})
    except RuntimeError as exc:
        raise JsError(napi_message(exc)) from None


def _span(node) -> tuple[int, int]:
    r = node.range()
    return r.start.index, r.end.index


# --- rename -----------------------------------------------------------------------------------

def _escape_regex(text: str) -> str:
    return _REGEX_META.sub(lambda m: "\\" + m.group(0), text)


def rename_identifiers(content: str, root, old: str, new: str) -> tuple[str, int]:
    """Every `identifier` node whose text is `old`, in any scope; property and type names are other kinds."""
    nodes = _find_all(root, {"kind": "identifier", "regex": f"^{_escape_regex(old)}$"})
    seen: set[int] = set()
    replacements = []
    for node in nodes:
        start, end = _span(node)
        if start in seen:
            continue
        seen.add(start)
        replacements.append((start, end, new))
    replacements.sort(key=lambda r: -r[0])
    for start, end, text in replacements:
        content = content[:start] + text + content[end:]
    return content, len(replacements)


# --- imports ----------------------------------------------------------------------------------

def build_import_statement(default: str | None, named: list[str], module_str: str) -> str:
    if default and named:
        return f"import {default}, {{ {', '.join(named)} }} from {module_str};"
    if default:
        return f"import {default} from {module_str};"
    return f"import {{ {', '.join(named)} }} from {module_str};"


def merge_into_existing_import(content: str, existing, names: list[str], is_default) -> str | None:
    text = existing.text()
    if _NAMESPACE_IMPORT.search(text):
        return None
    default_match = _DEFAULT_IMPORT.search(text)
    named_match = _NAMED_IMPORTS.search(text)
    module_match = _MODULE_AT_END.search(text)
    if not module_match:
        return None
    module_str = module_match.group(1)
    existing_default = default_match.group(1) if default_match else None
    existing_named = ([n for n in (_js_trim(s) for s in named_match.group(1).split(",")) if n]
                      if named_match else [])
    new_default = existing_default
    new_named = list(existing_named)
    if is_default and names:
        if not existing_default:
            new_default = names[0]
        candidates = names[1:]
    else:
        candidates = names
    for name in candidates:
        if name not in new_named:
            new_named.append(name)
    if new_default == existing_default and len(new_named) == len(existing_named):
        return None
    statement = build_import_statement(new_default, new_named, module_str)
    start, end = _span(existing)
    return content[:start] + statement + content[end:]


def add_import(content: str, root, spec: dict) -> str:
    module, names, is_default = spec["module"], spec["names"], spec.get("isDefault")
    imports = _find_all(root, {"kind": "import_statement"})

    def mergeable(node) -> bool:
        text = node.text()
        if _TYPE_IMPORT.search(text) or _NAMESPACE_IMPORT.search(text):
            return False
        return f"'{module}'" in text or f'"{module}"' in text

    existing = next((node for node in imports if mergeable(node)), None)
    if existing is not None:
        merged = merge_into_existing_import(content, existing, names, is_default)
        return content if merged is None else merged
    statement = build_import_statement(names[0] if is_default else None,
                                       names[1:] if is_default else names, f"'{module}'")
    if imports:
        pos = _span(imports[-1])[1]
        return content[:pos] + "\n" + statement + content[pos:]
    return statement + "\n\n" + content


def remove_import(content: str, root, target: str) -> str:
    """The first import whose source is `target` or starts with `target/`, and the newline right after it."""
    for node in _find_all(root, {"kind": "import_statement"}):
        m = _IMPORT_SOURCE.search(node.text())
        module = (m.group(1) if m.group(1) is not None else m.group(2)) if m else None
        if module is not None and (module == target or module.startswith(f"{target}/")):
            start, end = _span(node)
            if content[end:end + 1] == "\n":
                end += 1
            return content[:start] + content[end:]
    return content


# --- pattern / replacement --------------------------------------------------------------------

def js_replace_all(subject: str, needle: str, template: str) -> str:
    """subject.replace(new RegExp(escaped needle, 'g'), template): the template's $$, $&, $` and $'
    are expanded (the regex has no groups, so $1 and $<name> stay as they are)."""
    out = []
    pos = 0
    while True:
        at = subject.find(needle, pos)
        if at < 0:
            break
        out.append(subject[pos:at])
        out.append(_expand(template, subject, at, needle))
        pos = at + len(needle)
    out.append(subject[pos:])
    return "".join(out)


def _expand(template: str, subject: str, at: int, matched: str) -> str:
    if "$" not in template:
        return template
    out = []
    i = 0
    while i < len(template):
        ch = template[i]
        if ch == "$" and i + 1 < len(template):
            nxt = template[i + 1]
            if nxt == "$":
                out.append("$")
                i += 2
                continue
            if nxt == "&":
                out.append(matched)
                i += 2
                continue
            if nxt == "`":
                out.append(subject[:at])
                i += 2
                continue
            if nxt == "'":
                out.append(subject[at + len(matched):])
                i += 2
                continue
        out.append(ch)
        i += 1
    return "".join(out)


class _PatternError(Exception):
    pass


def pattern_replace(content: str, root, pattern: str, replacement: str) -> tuple[str, int]:
    try:
        matches = root.find_all({"rule": {"pattern": pattern}})
    except RuntimeError as exc:
        raise _PatternError(napi_message(exc)) from None
    meta_vars = [m.group(1) for m in _META_VAR.finditer(pattern)]
    replacements = []
    for match in matches:
        start, end = _span(match)
        text = replacement
        for name in meta_vars:
            node = match.get_match(name)
            if node is not None:
                text = js_replace_all(text, f"${name}", node.text())
        replacements.append((start, end, text))
    replacements.sort(key=lambda r: -r[0])
    for start, end, text in replacements:
        content = content[:start] + text + content[end:]
    return content, len(replacements)


# --- the tool ---------------------------------------------------------------------------------

def execute(args: dict, ctx: ToolContext) -> str:
    fs = ctx.workspace.require_filesystem()
    emit_workspace_metadata(ctx, AST_EDIT)
    path = args["path"]
    pattern, replacement = args.get("pattern"), args.get("replacement")
    transform, target, new_name = args.get("transform"), args.get("targetName"), args.get("newName")
    import_spec = args.get("importSpec")
    if fs.readOnly:
        raise WorkspaceReadOnlyError("ast_edit")
    if not engine_available():
        return NOT_AVAILABLE
    from ast_grep_py import SgRoot

    try:
        content = fs.read_file(path, "utf-8")
    except FileNotFoundError_:
        return f"File not found: {path}. Use the write file tool to create it first."
    if not isinstance(content, str):
        return BINARY
    lang = language_of(path)
    if lang is None:
        return f"Unsupported file type for AST editing: {path}"
    root = SgRoot(content, lang).root()

    modified = content
    changes: list[str] = []
    if transform:
        if transform == "add-import":
            if not import_spec:
                return "Error: importSpec is required for add-import transform"
            modified = add_import(content, root, import_spec)
            changes.append(f"Added import from '{import_spec['module']}'")
        elif transform == "remove-import":
            if not target:
                return "Error: targetName is required for remove-import transform"
            modified = remove_import(content, root, target)
            changes.append(f"Removed import '{target}'")
        elif transform == "rename":
            if not target or not new_name:
                return "Error: targetName and newName are required for rename transform"
            modified, count = rename_identifiers(content, root, target, new_name)
            changes.append(f"Renamed '{target}' to '{new_name}' ({count} occurrences)")
    elif pattern and replacement is not None:
        try:
            modified, count = pattern_replace(content, root, pattern, replacement)
        except _PatternError as exc:
            return f"Error: AST pattern matching failed: {exc}"
        changes.append(f"Replaced {count} occurrences of pattern")
    elif pattern and replacement is None:
        return "Error: replacement is required when pattern is provided"
    elif not pattern and replacement is not None:
        return "Error: pattern is required when replacement is provided"
    else:
        return "Error: Must provide either transform or pattern/replacement"

    if modified == content:
        return f"No changes made to {path} ({'; '.join(changes)})"
    fs.write_file(path, modified, overwrite=True, expectedMtime=ctx.extra.get("expected_mtime"))
    # getEditDiagnosticsText: '' without an LSP manager (wsref has none)
    return f"{path}: {'; '.join(changes)}"


TOOL = Tool(AST_EDIT, DESCRIPTION, INPUT_SCHEMA, execute)
