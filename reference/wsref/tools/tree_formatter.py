"""formatAsTree (upstream `tools/tree-formatter.ts`): a directory as list_files' tab-indented tree.

The walk fetches directory listings level by level (readdir, or the provider's native `walk`
when it has one), then builds the tree depth first. What the listing shows follows from the
order of the filters, all applied per directory: `.git` directories, hidden names, the `exclude`
substrings, the workspace-root `.gitignore`, dirsOnly, extension, then the glob (files only),
then the sort (directories first, then by UTF-16 code units, so `B` < `a` and `.` < `0`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import DirectoryNotFoundError, NotDirectoryError
from ..gitignore import load_gitignore
from ..glob import create_glob_matcher
from ..js.strings import js_number, js_trim, utf16_key


@dataclass
class TreeResult:
    tree: str
    summary: str
    dirCount: int
    fileCount: int
    truncated: bool
    paths: list[str] = field(default_factory=list)


def _entry_get(entry, key, default=None):
    if isinstance(entry, dict):
        return entry.get(key, default)
    return getattr(entry, key, default)


def _fields(entry) -> tuple:
    """(name, type, isSymlink, symlinkTarget) of a listing entry, a dict or an object."""
    if isinstance(entry, dict):
        return entry.get("name"), entry.get("type"), entry.get("isSymlink"), entry.get("symlinkTarget")
    return (getattr(entry, "name", None), getattr(entry, "type", None), getattr(entry, "isSymlink", None),
            getattr(entry, "symlinkTarget", None))


def _sort_key(fields: tuple):
    """Directories first, then by UTF-16 code units (JS `<`)."""
    return (0 if fields[1] == "directory" else 1, utf16_key(fields[0]))


def get_relative_path(root_path: str, current_path: str, entry_name: str) -> str:
    def root_equivalent(p: str) -> bool:
        return p in ("/", "", ".")

    if current_path == root_path or (root_equivalent(current_path) and root_equivalent(root_path)):
        entry_path = entry_name
    else:
        entry_path = f"{'' if current_path == '/' else current_path}/{entry_name}"
    if root_equivalent(root_path):
        cleaned = entry_path[2:] if entry_path.startswith("./") else entry_path
        return cleaned[1:] if cleaned.startswith("/") else cleaned
    relative = entry_path[len(root_path) + 1:] if entry_path.startswith(root_path + "/") else entry_path
    return relative or entry_path


def join_path(base: str, name: str) -> str:
    if base in ("", "./", "."):
        return name
    if base == "/":
        return f"/{name}"
    return f"{base}/{name}"


def _strip_one_trailing_slash(p: str) -> str:
    return p[:-1] if p.endswith("/") else p


def format_as_tree(fs, path: str, *, maxDepth=float("inf"), showHidden=False, dirsOnly=False, exclude=None,
                   extension=None, pattern=None, ignoreFilter=None, respectGitignore=True, logger=None) -> TreeResult:
    max_depth = float("inf") if maxDepth is None else maxDepth
    show_hidden = bool(showHidden)
    dirs_only = bool(dirsOnly)
    respect_gitignore = True if respectGitignore is None else respectGitignore

    ignore_filter = ignoreFilter
    if not ignore_filter and respect_gitignore:
        raw_filter = load_gitignore(fs)
        if raw_filter:
            normalized = path[2:] if path.startswith("./") else path
            normalized = normalized[1:] if normalized.startswith("/") else normalized
            normalized = _strip_one_trailing_slash(normalized)
            target_ignored = bool(normalized) and raw_filter(normalized + "/")
            ignore_filter = None if target_ignored else raw_filter

    glob_matcher = None
    if pattern or isinstance(pattern, list):
        glob_matcher = create_glob_matcher(pattern if isinstance(pattern, list) else [pattern], dot=show_hidden)

    lines = ["."]
    paths: list[str] = []
    counts = {"dirs": 0, "files": 0, "truncated": False}

    if isinstance(exclude, list):
        exclude_patterns = exclude  # an array is truthy in JS even when empty
    elif exclude:
        exclude_patterns = [p for p in (js_trim(x) for x in exclude.split("|")) if p]
    else:
        exclude_patterns = None

    def should_descend(current_path: str, entry) -> bool:
        if _entry_get(entry, "type") != "directory" or _entry_get(entry, "isSymlink"):
            return False
        name = _entry_get(entry, "name")
        if name == ".git":
            return False
        if not show_hidden and name.startswith("."):
            return False
        if exclude_patterns is not None and any(p in name for p in exclude_patterns):
            return False
        if ignore_filter:
            if ignore_filter(get_relative_path("", current_path, name) + "/"):
                return False
        return True

    entries_by_path: dict[str, list] = {}
    root_error: list[BaseException] = []

    normalized_root = _strip_one_trailing_slash(path)
    root_is_git = normalized_root == ".git" or normalized_root.endswith("/.git")
    should_walk = not root_is_git and max_depth > 0

    prefetched = False
    walk = getattr(fs, "walk", None)
    if should_walk and callable(walk):
        try:
            walk_entries = walk(path, maxDepth=None if max_depth == float("inf") else max_depth,
                                includeHidden=show_hidden)
            entries_by_path[path] = []
            for entry in walk_entries:
                entry_path = _entry_get(entry, "path")
                sep = entry_path.rfind("/")
                parent = path if sep == -1 else join_path(path, entry_path[:sep])
                entries_by_path.setdefault(parent, []).append(entry)
                if _entry_get(entry, "type") == "directory" and not _entry_get(entry, "isSymlink"):
                    entries_by_path.setdefault(join_path(path, entry_path), [])
            prefetched = True
        except Exception as error:  # noqa: BLE001 - any failure falls back to readdir
            entries_by_path.clear()
            if not isinstance(error, (DirectoryNotFoundError, NotDirectoryError)) and logger is not None:
                logger.warn(f'Native walk failed on "{getattr(fs, "provider", "")}" filesystem; falling back to '
                            f'per-directory readdir walk for "{path}"', {"error": str(error)})

    frontier = [] if (not should_walk or prefetched) else [(path, 0)]
    while frontier:
        next_frontier = []
        for dir_path, depth in frontier:
            try:
                entries = fs.readdir(dir_path)
            except Exception as error:  # noqa: BLE001 - at the root it is thrown later, below it skipped
                if depth == 0:
                    root_error.append(error)
                continue
            entries_by_path[dir_path] = entries
            if depth + 1 >= max_depth:
                continue
            for entry in entries:
                if should_descend(dir_path, entry):
                    next_frontier.append((join_path(dir_path, _entry_get(entry, "name")), depth + 1))
        frontier = next_frontier

    def build_tree(current_path: str, depth) -> None:
        normalized_current = _strip_one_trailing_slash(current_path)
        if normalized_current == ".git" or normalized_current.endswith("/.git"):
            return
        if depth >= max_depth:
            counts["truncated"] = True
            return
        entries = entries_by_path.get(current_path)
        if entries is None:
            if depth == 0 and root_error:
                raise root_error[0]
            return
        # Each entry's fields read once (entries are dicts from readdir, objects from a native walk).
        filtered = [_fields(e) for e in entries]
        filtered = [f for f in filtered if not (f[1] == "directory" and f[0] == ".git")]
        if not show_hidden:
            filtered = [f for f in filtered if not f[0].startswith(".")]
        if exclude_patterns is not None:
            filtered = [f for f in filtered if not any(p in f[0] for p in exclude_patterns)]
        if ignore_filter:
            kept = []
            for f in filtered:
                rel = get_relative_path("", current_path, f[0])
                check = f"{rel}/" if f[1] == "directory" else rel
                if not ignore_filter(check):
                    kept.append(f)
            filtered = kept
        if dirs_only:
            filtered = [f for f in filtered if f[1] == "directory"]
        if extension and not dirs_only:
            exts = extension if isinstance(extension, list) else [extension]
            norm = [x if x.startswith(".") else f".{x}" for x in exts]
            filtered = [f for f in filtered if f[1] == "directory" or any(f[0].endswith(x) for x in norm)]
        if glob_matcher and not dirs_only:
            filtered = [f for f in filtered if f[1] == "directory"
                        or glob_matcher(get_relative_path(path, current_path, f[0]))]
        filtered.sort(key=_sort_key)
        indent = "\t" * depth
        for name, kind, is_link, target in filtered:
            display = f"{name} -> {target}" if is_link and target else name
            lines.append(f"{indent}{display}")
            paths.append(get_relative_path(path, current_path, name))
            if kind == "directory":
                counts["dirs"] += 1
                if not is_link:
                    build_tree(join_path(current_path, name), depth + 1)
            else:
                counts["files"] += 1

    build_tree(path, 0)

    dirs, files = counts["dirs"], counts["files"]
    summary = f"{'1 directory' if dirs == 1 else f'{dirs} directories'}, {'1 file' if files == 1 else f'{files} files'}"
    if counts["truncated"]:
        shown = "Infinity" if max_depth == float("inf") else js_number(max_depth)
        summary += f" (truncated at depth {shown})"
    return TreeResult("\n".join(lines), summary, dirs, files, counts["truncated"], paths)
