"""Language detection (upstream `lsp/language.ts`): file extension -> LSP language id."""
from __future__ import annotations

LANGUAGE_EXTENSIONS = {
    ".ts": "typescript", ".tsx": "typescriptreact", ".js": "javascript", ".jsx": "javascriptreact",
    ".mjs": "javascript", ".cjs": "javascript",
    ".py": "python", ".pyi": "python",
    ".go": "go",
    ".rs": "rust",
    ".c": "c", ".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp", ".h": "c", ".hpp": "cpp",
    ".java": "java",
    ".json": "json", ".jsonc": "jsonc",
    ".yaml": "yaml", ".yml": "yaml",
    ".md": "markdown",
    ".html": "html", ".css": "css", ".scss": "scss", ".sass": "sass", ".less": "less",
}


def get_language_id(file_path: str, custom_extensions: dict | None = None) -> str | None:
    """From the last dot on (of the whole path, as upstream: `lastIndexOf('.')`); custom first."""
    dot = file_path.rfind(".")
    if dot == -1:
        return None
    ext = file_path[dot:]
    found = (custom_extensions or {}).get(ext)
    return found if found is not None else LANGUAGE_EXTENSIONS.get(ext)
