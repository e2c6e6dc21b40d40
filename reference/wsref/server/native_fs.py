"""Capability `native_fs` (spec/protocol.md, "Native walk and grep"): the test provider.

The session's filesystem gets the optional native methods walk() and grep() of the
WorkspaceFilesystem interface over the same local folder; `workspace.native` picks each one's
variant ("local", "phantom" (plus made-up entries), "empty" (grep: no results), "throw", "unsupported" for grep, "notFound" for walk). Each call is logged to
the hook log. The same provider as the bridge's lib/native-fs.mjs, so the cases judge the tools'
use of native results, not the provider. `workspace.logger: "record"` is RecordingLogger.
"""
from __future__ import annotations

from ..errors import DirectoryNotFoundError, UnsupportedGrepPatternError
from ..js.regexp import compile_js, from_units, to_units
from .wire import to_json

VARIANTS = {"walk": ("local", "phantom", "throw", "notFound"),
            "grep": ("local", "phantom", "empty", "throw", "unsupported"),
            # Not native methods: the provider's readFile/writeFile logged, or a readFile returning bytes.
            "readFile": ("logged", "bytes"), "writeFile": ("logged",),
            # Nor this: the optional resolveAbsolutePath taken away ("missing") or throwing ("throw").
            "resolveAbsolutePath": ("missing", "throw")}
# What the "phantom" variants add after the local results (no readdir or readFile shows them).
PHANTOM_WALK = [{"name": "phantom.txt", "type": "file", "size": 7, "path": "phantom.txt"}]
PHANTOM_GREP = [
    {"path": ".hid/h.txt", "matches": [{"line": 1, "column": 0, "text": "hidden"}]},
    {"path": "sub/.git/c.txt", "matches": [{"line": 1, "column": 0, "text": "in git"}]},
    {"path": "pic.png", "matches": [{"line": 1, "column": 0, "text": "binary"}]},
    {"path": "./ghost.txt", "matches": [{"line": 3, "column": 2, "text": "a ghost line", "before": ["one", "two"],
                                         "after": ["four"]}]},
]


class NativeSpecError(ValueError):
    """A bad `workspace.native` block: a fault, not a result."""


def _under(path: str, rel: str) -> str:
    base = path.rstrip("/")
    return rel if base in ("", ".") else f"{base}/{rel}"


def _walk_local(fs, path: str, maxDepth=None, includeHidden=None, includeGitignoreFiles=None) -> list[dict]:
    max_depth = float("inf") if maxDepth is None else maxDepth
    out: list[dict] = []

    def visit(rel: str, depth: int) -> None:
        for entry in fs.readdir(path if rel == "" else _under(path, rel)):
            name = entry["name"]
            if name.startswith(".") and not includeHidden and not (includeGitignoreFiles and name == ".gitignore"):
                continue
            entry_path = name if rel == "" else f"{rel}/{name}"
            out.append({**entry, "path": entry_path})
            if entry["type"] == "directory" and not entry.get("isSymlink") and depth + 1 < max_depth:
                visit(entry_path, depth + 1)

    visit("", 0)
    return out


def _grep_local(fs, options: dict) -> list[dict]:
    regex = compile_js(options["pattern"], "gi" if options.get("caseSensitive") is False else "g")
    context = options.get("contextLines") or 0
    per_file, cap = options.get("maxCountPerFile"), options.get("maxTotalMatches")
    files = [e for e in _walk_local(fs, options["path"], includeHidden=options.get("includeHidden"))
             if e["type"] == "file"]
    results, total = [], 0
    for file in files:
        if cap is not None and total >= cap:
            break
        content = fs.read_file(_under(options["path"], file["path"]), "utf-8")
        lines = to_units(content).split("\n")
        matches = []
        for i, line in enumerate(lines):
            column = regex.search(line)
            if column is None:
                continue
            match = {"line": i + 1, "column": column, "text": from_units(line)}
            if context > 0:
                match["before"] = [from_units(x) for x in lines[max(0, i - context):i]]
                match["after"] = [from_units(x) for x in lines[i + 1:i + 1 + context]]
            matches.append(match)
            total += 1
            if per_file is not None and len(matches) >= per_file:
                break
            if cap is not None and total >= cap:
                break
        if matches:
            results.append({"path": file["path"], "matches": matches})
    return results


def with_native(fs, spec, hook_log: list) -> None:
    """Give the filesystem instance the native methods `spec` ({walk?, grep?}) names."""
    if not isinstance(spec, dict):
        raise NativeSpecError("workspace.native must be an object: {walk?, grep?}")
    for method, variant in spec.items():
        if variant not in VARIANTS.get(method, ()):
            raise NativeSpecError(f"workspace.native.{method} must be one of {', '.join(VARIANTS.get(method, ()))}")
    walk_variant, grep_variant = spec.get("walk"), spec.get("grep")
    if walk_variant:
        def walk(path, **options):
            hook_log.append({"hook": "fs.walk", "path": path,
                             "options": to_json({k: v for k, v in options.items() if v is not None})})
            if walk_variant == "throw":
                raise Exception("native walk failed")
            if walk_variant == "notFound":
                raise DirectoryNotFoundError(path)
            entries = _walk_local(fs, path, **options)
            return entries + [dict(e) for e in PHANTOM_WALK] if walk_variant == "phantom" else entries
        fs.walk = walk
    if grep_variant:
        def grep(options: dict):
            hook_log.append({"hook": "fs.grep", "options": to_json({k: v for k, v in options.items() if v is not None})})
            if grep_variant == "throw":
                raise Exception("native grep failed")
            if grep_variant == "unsupported":
                raise UnsupportedGrepPatternError(options["pattern"], "test provider")
            if grep_variant == "empty":
                return []
            results = _grep_local(fs, options)
            return results + [dict(r) for r in PHANTOM_GREP] if grep_variant == "phantom" else results
        fs.grep = grep
    _wrap_read_write(fs, spec, hook_log)


def _wrap_read_write(fs, spec, hook_log: list) -> None:
    if spec.get("resolveAbsolutePath") == "missing":
        fs.resolve_absolute_path = None  # the tools' getattr(...) finds no method: the fallbacks
    elif spec.get("resolveAbsolutePath") == "throw":
        def resolve_absolute_path(input_path):
            raise Exception("resolveAbsolutePath failed")
        fs.resolve_absolute_path = resolve_absolute_path
    if spec.get("readFile"):
        read_file = fs.read_file

        def logged_read(input_path, encoding=None, **kwargs):
            hook_log.append({"hook": "fs.readFile", "path": input_path,
                             "options": None if encoding is None else {"encoding": encoding}})
            if spec["readFile"] == "bytes":
                return read_file(input_path, **kwargs)
            return read_file(input_path, encoding, **kwargs)
        fs.read_file = logged_read
    if spec.get("writeFile"):
        write_file = fs.write_file

        def logged_write(input_path, content, **kwargs):
            # The tools hand wsref's write_file UTF-8 bytes where upstream hands the provider the string.
            shown = content.decode("utf-8", "surrogateescape") if isinstance(content, bytes) else content
            hook_log.append({"hook": "fs.writeFile", "path": input_path, "content": to_json(shown)})
            return write_file(input_path, content, **kwargs)
        fs.write_file = logged_write


class RecordingLogger:
    """Logs info, warn and error calls to the hook log as {hook: "logger.<level>", message, data?}; debug too
    with `with_debug` (workspace.logger "recordDebug"); trace is dropped."""

    def __init__(self, hook_log: list, with_debug: bool = False):
        self._log = hook_log
        self._with_debug = with_debug

    def debug(self, message, data=None) -> None:
        if self._with_debug:
            self._record("debug", message, data)

    def _record(self, level: str, message, data=None) -> None:
        entry = {"hook": f"logger.{level}", "message": str(message)}
        if data is not None:
            entry["data"] = to_json(data)
        self._log.append(entry)

    def info(self, message, data=None) -> None:
        self._record("info", message, data)

    def warn(self, message, data=None) -> None:
        self._record("warn", message, data)

    def error(self, message, data=None) -> None:
        self._record("error", message, data)
