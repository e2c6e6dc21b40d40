"""Server definitions (upstream `lsp/servers.ts`): where each built-in language server is found,
the custom servers of the LSPConfig, and the project-root walk over the servers' markers.

A definition is data: `command(root)` gives the command string (or None when the server is not
installed) that the client spawns through the sandbox's process manager.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from dataclasses import dataclass
from typing import Callable

from .language import get_language_id


@dataclass
class LSPServerDef:
    id: str
    name: str
    language_ids: list
    markers: list
    command: Callable[[str], str | None]
    initialization: Callable[[str], dict | None] | None = None


def _node_resolve(start_dir: str, module_id: str) -> str | None:
    """require.resolve(module_id) from start_dir/package.json: node_modules of each folder up."""
    current = os.path.abspath(start_dir)
    while True:
        candidate = os.path.join(current, "node_modules", module_id)
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _resolve_from_paths(root: str, module_id: str, search_paths) -> str | None:
    """resolveRequireFromPaths: from the root, then process.cwd(), then each search path."""
    for start in [root, os.getcwd(), *(search_paths or [])]:
        found = _node_resolve(start, module_id)
        if found:
            return found
    return None


def _node_bin(root: str, binary: str, search_paths) -> str | None:
    """resolveNodeBin: node_modules/.bin of the root, process.cwd(), then each search path (no walk up)."""
    for start in [root, os.getcwd(), *(search_paths or [])]:
        candidate = os.path.join(start, "node_modules", ".bin", binary)
        if os.path.exists(candidate):
            return candidate
    return None


def walk_up(start_dir: str, markers: list) -> str | None:
    """The first folder from start_dir up holding one of the markers (on this machine's disk)."""
    current = start_dir
    while True:
        for marker in markers:
            if os.path.exists(os.path.join(current, marker)):
                return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def walk_up_async(start_dir: str, markers: list, fs) -> str | None:
    """walkUpAsync: the same walk through the workspace filesystem's exists(), which a contained
    LocalFilesystem refuses (PermissionError) once the walk leaves its basePath."""
    current = start_dir
    while True:
        for marker in markers:
            if fs.exists(os.path.join(current, marker)):
                return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


DEFAULT_MARKERS = ["tsconfig.json", "package.json", "pyproject.toml", "go.mod", "Cargo.toml", "composer.json", ".git"]


def find_project_root(start_dir: str) -> str | None:
    """The Workspace's default LSP root (from process.cwd()) when the config names none."""
    return walk_up(start_dir, DEFAULT_MARKERS)


def build_custom_extensions(servers: dict | None) -> dict:
    """Extension -> the first language id of the server declaring it; the last server wins."""
    extensions: dict = {}
    for server in (servers or {}).values():
        language_ids = server.get("languageIds") or []
        if not language_ids:
            continue
        language_id = language_ids[0]
        for ext in server.get("extensions") or []:
            existing = extensions.get(ext)
            if existing and existing != language_id:
                print(f'[LSP] Extension "{ext}" is claimed by language "{existing}" and "{language_id}" '
                      f'(server "{server.get("id")}") — using "{language_id}"', file=sys.stderr)
            extensions[ext] = language_id
    return extensions


def _custom_def(custom: dict) -> LSPServerDef:
    options = custom.get("initializationOptions")
    return LSPServerDef(custom["id"], custom["name"], list(custom.get("languageIds") or []),
                        list(custom.get("markers") or []), lambda _root: custom["command"],
                        (lambda _root: options) if options else None)


def build_server_defs(config: dict | None = None) -> dict:
    """The built-in servers with the config's overrides, then the custom servers (an id replaces)."""
    config = config or {}
    overrides = config.get("binaryOverrides") or {}
    search_paths = config.get("searchPaths")
    runner = config.get("packageRunner")

    def node_server(server_id: str, binary: str):
        def command(root: str) -> str | None:
            if overrides.get(server_id):
                return overrides[server_id]
            found = _node_bin(root, binary, search_paths)
            if found:
                return f"{found} --stdio"
            if shutil.which(binary):
                return f"{binary} --stdio"
            return f"{runner} {binary} --stdio" if runner else None
        return command

    def typescript_command(root: str) -> str | None:
        if overrides.get("typescript"):
            return overrides["typescript"]
        if _resolve_from_paths(root, "typescript/lib/tsserver.js", search_paths):
            return node_server("typescript", "typescript-language-server")(root)
        # TS 7+: no tsserver.js; the package's own tsc speaks LSP (never an older tsc on PATH)
        manifest_path = _resolve_from_paths(root, "typescript/package.json", search_paths)
        if not manifest_path:
            return None
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        try:
            major = int(str(manifest.get("version", "")).split(".")[0])
        except ValueError:
            return None
        if major < 7:
            return None
        bin_rel = manifest.get("bin") if isinstance(manifest.get("bin"), str) else (manifest.get("bin") or {}).get("tsc")
        if not bin_rel:
            return None
        entry = os.path.join(os.path.dirname(manifest_path), bin_rel)
        return f"node {entry} --lsp --stdio" if os.path.exists(entry) else None

    def typescript_init(root: str):
        ts = _resolve_from_paths(root, "typescript/lib/tsserver.js", search_paths)
        return {"tsserver": {"path": ts, "logVerbosity": "off"}} if ts else None

    def on_path(server_id: str, binary: str, command_line: str):
        def command(_root: str) -> str | None:
            if overrides.get(server_id):
                return overrides[server_id]
            return command_line if shutil.which(binary) else None
        return command

    js_languages = ["typescript", "typescriptreact", "javascript", "javascriptreact"]
    defs = {
        "typescript": LSPServerDef("typescript", "TypeScript Language Server", js_languages,
                                   ["tsconfig.json", "package.json"], typescript_command, typescript_init),
        "eslint": LSPServerDef("eslint", "ESLint Language Server", js_languages,
                               ["package.json", ".eslintrc.js", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml",
                                "eslint.config.js", "eslint.config.mjs", "eslint.config.ts"],
                               node_server("eslint", "vscode-eslint-language-server")),
        "python": LSPServerDef("python", "Python Language Server (Pyright)", ["python"],
                               ["pyproject.toml", "setup.py", "requirements.txt", "setup.cfg"],
                               node_server("python", "pyright-langserver")),
        "go": LSPServerDef("go", "Go Language Server (gopls)", ["go"], ["go.mod"], on_path("go", "gopls", "gopls serve")),
        "rust": LSPServerDef("rust", "Rust Language Server (rust-analyzer)", ["rust"], ["Cargo.toml"],
                             on_path("rust", "rust-analyzer", "rust-analyzer --stdio")),
    }
    for custom in (config.get("servers") or {}).values():
        defs[custom["id"]] = _custom_def(custom)
    return defs


def get_servers_for_file(file_path: str, disabled=None, defs: dict | None = None,
                         custom_extensions: dict | None = None) -> list:
    """The definitions handling the file's language, in definition order, minus the disabled ones."""
    language_id = get_language_id(file_path, custom_extensions)
    if not language_id:
        return []
    off = set(disabled or [])
    return [d for d in (defs if defs is not None else build_server_defs()).values()
            if d.id not in off and language_id in d.language_ids]
