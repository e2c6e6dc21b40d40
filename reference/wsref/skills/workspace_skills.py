"""WorkspaceSkills (upstream `skills/workspace-skills.ts`): SKILL.md discovery and the catalog.

For static `skills` paths (plain paths and globs) on the workspace's own filesystem: discovery
(a path that is a skill, or a folder of skill folders; invalid skills are skipped), the catalog
(list, get with tie-breaking local > managed > external, then path), references/scripts/assets,
and search (through the workspace's BM25 engine when there is one, else plain substring matching).
Parsing is in schemas.py, the three tools the agent adds in tools.py.

A skill path function is called with an empty context for the workspace's own catalog; the skill
and skill_read tools read the request-scoped view of their call's context (getScoped: one catalog per
path set the function gives). Not followed: that view's own search namespace (the scoped views have
no search engine here, so skill_search stays on the workspace's catalog), the views for
resolver-backed filesystems, a custom skillSource, and gray-matter's YAML dialect beyond what
PyYAML reads alike. The staleness check of maybeRefresh is followed: folder (and, with
checkSkillFileMtime, SKILL.md) mtimes against the time of the last discovery, at most every 30 s
by `Date.now()` (js/date.py).
"""
from __future__ import annotations

import functools
import re

from ..glob import is_glob_pattern
from ..js import date
from ..js.strings import js_trim
from .schemas import SkillError, _matter, _validate

SKILL_SCOPE_DOCUMENT_PREFIX = "skill-scope:"
STALENESS_CHECK_COOLDOWN = 30_000  # ms after a discovery in which maybeRefresh stats nothing
GLOB_RESOLVE_INTERVAL = 5_000  # ms between re-walks of a glob path's folders by the staleness check
_SOURCE_PRIORITY = {"local": 0, "managed": 1, "external": 2}
_FRONT_MATTER_KEYS = ("name", "description", "license", "compatibility", "user-invocable", "metadata")


# -- SKILL.md parsing -------------------------------------------------------------------------


# -- paths --------------------------------------------------------------------------------------


def _join(*segments: str) -> str:
    parts = [s.rstrip("/") if i == 0 else s.strip("/") for i, s in enumerate(segments)]
    return "/".join(p for p in parts if p)


def _parent(path: str) -> str:
    last = max(path.rfind("/"), path.rfind("\\"))
    return path[:last] if last > 0 else "/"


def _segments(path: str) -> list[str]:
    return re.split(r"[\\/]+", path)


def _is_skill_file(path: str) -> bool:
    return path == "SKILL.md" or re.search(r"[\\/]SKILL\.md$", path) is not None


def _source_of(skills_path: str) -> dict:
    if "node_modules" in _segments(skills_path):
        return {"type": "external", "packagePath": skills_path}
    normalized = skills_path.replace("\\", "/")
    if "/.mastra/skills" in normalized or normalized.startswith(".mastra/skills"):
        return {"type": "managed", "mastraPath": skills_path}
    return {"type": "local", "projectPath": skills_path}


def _locale_compare(a: str, b: str) -> int:
    """String.prototype.localeCompare, approximated: case-insensitive first, then case."""
    ka, kb = (a.casefold(), a.swapcase()), (b.casefold(), b.swapcase())
    return (ka > kb) - (ka < kb)


def _by_priority(a: dict, b: dict) -> int:
    pa, pb = _SOURCE_PRIORITY.get(a["source"]["type"], 99), _SOURCE_PRIORITY.get(b["source"]["type"], 99)
    if pa != pb:
        return pa - pb
    return _locale_compare(a["path"], b["path"])


def _assert_relative(value: str, label: str) -> str:
    normalized = value.replace("\\", "/")
    segments = [s for s in normalized.split("/") if s and s != "."]
    if normalized.startswith("/") or ".." in segments:
        raise SkillError(f"Invalid {label} path: {value}")
    return "/".join(segments)


# -- LocalSkillSource ---------------------------------------------------------------------------------


# -- the catalog ----------------------------------------------------------------------------------


class WorkspaceSkills:
    def __init__(self, source, paths, search_engine=None, assert_available=None, check_skill_file_mtime=False):
        self.source = source
        self.paths = list(paths) if not callable(paths) else paths
        self.resolved_paths: list[str] = []  # #resolvedPaths: the path set the catalog was discovered from
        self.search_engine = search_engine
        self.assert_available = assert_available
        self.skills: dict[str, list[dict]] = {}
        self.initialized = False
        self._location_aliases: dict[str, str] = {}  # registerLocationAlias: location -> skill path
        self.check_skill_file_mtime = check_skill_file_mtime
        self._last_discovery_time = 0  # Date.now() when a discovery (or addSkill/removeSkill) ended
        self._glob_dir_cache: dict[str, list[str]] = {}  # glob path -> the folders the staleness check stats
        self._glob_resolve_times: dict[str, int] = {}
        self._scoped_by_paths: dict[str, "WorkspaceSkills"] = {}  # getScoped's views, by sorted path set

    def get_scoped(self, request_context=None) -> "WorkspaceSkills":
        """getScoped: static paths are this catalog; a paths function gives, for the request context,
        the catalog of the paths it returns (one per path set, kept)."""
        if not callable(self.paths):
            return self
        paths = self._resolve_paths({"requestContext": request_context} if request_context is not None else None)
        key = "\n".join(sorted(paths))
        scoped = self._scoped_by_paths.get(key)
        if scoped is None:
            scoped = WorkspaceSkills(self.source, paths, None, self.assert_available,
                                     check_skill_file_mtime=self.check_skill_file_mtime)
            self._scoped_by_paths[key] = scoped
        return scoped

    # discovery

    def _ensure(self) -> None:
        if self.assert_available:
            self.assert_available()
        if self.initialized:
            return
        if not self.resolved_paths:  # resolved on first initialization, with an empty context
            self.resolved_paths = self._resolve_paths()
        new: dict[str, list[dict]] = {}
        self._discover(new)
        old = self.skills
        self.skills = new
        self.initialized = True
        self._reconcile(old, new)

    def _readdir(self, directory: str) -> list[dict]:
        return [{"name": e["name"], "type": e["type"], "isSymlink": e.get("isSymlink")}
                for e in self.source.readdir(directory)]

    def _exists(self, path: str) -> bool:
        return self.source.exists(path)

    def _resolve_paths(self, context: dict | None = None) -> list[str]:
        """#resolvePaths: the static list, or the paths function of the context ({} when none), awaited."""
        if not callable(self.paths):
            return self.paths
        from ..js.promise import Promise
        result = self.paths(context or {})
        return list(result.settle() if isinstance(result, Promise) else result)

    def _glob_dirs(self, resolved: list[dict]) -> list[str]:
        """The folders a glob's matches give the staleness check: a matched folder, a matched file's parent."""
        dirs: dict[str, None] = {}
        for entry in resolved:
            dirs[entry["path"] if entry["type"] == "directory" else _parent(entry["path"])] = None
        return list(dirs)

    def _discover(self, target: dict) -> None:
        from ..glob import resolve_path_pattern
        self._glob_dir_cache.clear()
        self._glob_resolve_times.clear()
        for raw in self.resolved_paths:  # empty before the first initialization: a refresh then finds nothing
            path = raw[:-1] if len(raw) > 1 and raw.endswith("/") else raw
            source = _source_of(path)
            if is_glob_pattern(path):
                resolved = resolve_path_pattern(path, self._readdir, dot=True, max_depth=4)
                self._glob_dir_cache[path] = self._glob_dirs(resolved)
                self._glob_resolve_times[path] = date.now()
                for entry in resolved:
                    try:
                        if entry["type"] == "file":
                            self._discover_direct(entry["path"], source, target)
                        elif not self._discover_direct(entry["path"], source, target):
                            self._discover_in(entry["path"], source, target)
                    except Exception:
                        pass  # logged upstream; the other entries still load
            elif not self._discover_direct(path, source, target):
                self._discover_in(path, source, target)
        self._last_discovery_time = date.now()  # when discovery completed, for the staleness check

    def _discover_in(self, skills_path: str, source: dict, target: dict) -> None:
        try:
            if not self._exists(skills_path):
                return
        except Exception:
            return  # "Cannot access skills path" is logged upstream
        try:
            entries = self._readdir(skills_path)
        except Exception:
            return
        for entry in entries:
            if entry["type"] != "directory":
                continue
            entry_path = _join(skills_path, entry["name"])
            skill_file = _join(entry_path, "SKILL.md")
            try:
                if self._exists(skill_file):
                    self._add(self._parse(skill_file, entry["name"], source), target)
            except Exception:
                pass  # an invalid skill is logged and skipped

    def _discover_direct(self, path: str, source: dict, target: dict) -> bool:
        try:
            if _is_skill_file(path):
                if not self._exists(path):
                    return True
                skill_dir = _parent(path)
                dir_name = _segments(skill_dir)[-1] or skill_dir
                try:
                    self._add(self._parse(path, dir_name, source), target)
                except Exception:
                    pass
                return True
            if self._exists(path):
                skill_file = _join(path, "SKILL.md")
                if self._exists(skill_file):
                    dir_name = _segments(path)[-1] or path
                    try:
                        self._add(self._parse(skill_file, dir_name, source), target)
                    except Exception:
                        pass
                    return True
            return False
        except Exception:
            return False

    @staticmethod
    def _add(skill: dict, target: dict) -> None:
        candidates = target.setdefault(skill["name"], [])
        for i, s in enumerate(candidates):
            if s["path"] == skill["path"]:
                candidates[i] = skill
                return
        candidates.append(skill)

    def _read_text(self, path: str) -> str:
        return self.source.read_file(path, encoding="utf-8")

    def _parse(self, file_path: str, dir_name: str, source: dict) -> dict:
        data, body = _matter(self._read_text(file_path))
        instructions = js_trim(body)
        # only the keys the front matter has: a key set to null is listed as null, an absent one not at all
        meta = {k: data[k] for k in _FRONT_MATTER_KEYS if k in data}
        skill_path = _parent(file_path)
        errors = _validate(meta, dir_name)
        if errors:
            raise SkillError(f"Invalid skill metadata in {file_path}:\n" + "\n".join(errors))
        return {**meta, "path": skill_path, "instructions": instructions, "source": source,
                "references": self._files_in(skill_path, "references"),
                "scripts": self._files_in(skill_path, "scripts"),
                "assets": self._files_in(skill_path, "assets")}

    def _files_in(self, skill_path: str, subdir: str) -> list[str]:
        base = _join(skill_path, subdir)
        files: list[str] = []
        if not self._exists(base):
            return files

        def walk(directory: str, depth: int) -> None:
            if depth >= 20:
                return
            for entry in self._readdir(directory):
                entry_path = _join(directory, entry["name"])
                if entry["type"] == "directory" and not entry.get("isSymlink"):
                    walk(entry_path, depth + 1)
                else:
                    files.append(entry_path[len(base) + 1:])
        try:
            walk(base, 0)
        except Exception:
            pass
        return files

    # the search index

    def _reconcile(self, old: dict, new: dict) -> None:
        flat = lambda m: {s["path"]: s for c in m.values() for s in c}  # noqa: E731
        old_by, new_by = flat(old), flat(new)
        for path, skill in old_by.items():
            if path not in new_by:
                self._unindex(skill)
        for path, skill in new_by.items():
            prev = old_by.get(path)
            if prev and prev["instructions"] == skill["instructions"] and prev["references"] == skill["references"]:
                continue
            if prev:
                self._unindex(prev)
            self._index(skill)

    def _index(self, skill: dict) -> None:
        if self.search_engine is None:
            return
        self.search_engine.index({"id": f"skill:{skill['path']}:SKILL.md", "content": skill["instructions"],
                                  "metadata": {"skillPath": skill["path"], "source": "SKILL.md"}})
        for ref in skill["references"]:
            try:
                content = self._read_text(_join(skill["path"], "references", ref))
            except Exception:
                continue
            self.search_engine.index({"id": f"skill:{skill['path']}:{ref}", "content": content,
                                      "metadata": {"skillPath": skill["path"], "source": f"references/{ref}"}})

    def _unindex(self, skill: dict) -> None:
        if self.search_engine is None:
            return
        for doc_id in [f"skill:{skill['path']}:SKILL.md", *(f"skill:{skill['path']}:{r}" for r in skill["references"])]:
            self.search_engine.remove(doc_id)

    # resolution

    def _canonical(self, path: str) -> str:
        try:
            return self.source.realpath(path)
        except Exception:
            return path

    def _dedupe(self, candidates: list[dict]) -> list[dict]:
        groups: dict[str, list[dict]] = {}
        for c in candidates:
            groups.setdefault(self._canonical(c["path"]), []).append(c)
        return [sorted(g, key=functools.cmp_to_key(_by_priority))[0] for g in groups.values()]

    def _tie_break(self, candidates: list[dict]):
        if not candidates:
            return None
        if len(candidates) == 1:
            return candidates[0]
        deduped = self._dedupe(candidates)
        if len(deduped) == 1:
            return deduped[0]
        ordered = sorted(deduped, key=functools.cmp_to_key(_by_priority))
        winner, runner_up = ordered[0], ordered[1]
        if winner["source"]["type"] == runner_up["source"]["type"]:
            paths = ", ".join(f'"{s["path"]}"' for s in ordered if s["source"]["type"] == winner["source"]["type"])
            raise SkillError(f'[WorkspaceSkills] Cannot resolve skill "{winner["name"]}": multiple '
                             f'{winner["source"]["type"]} skills found at {paths}. '
                             "Rename one or move it to a different source type.")
        return winner

    def _by_name(self, name: str):
        return self._tie_break(self.skills.get(name) or [])

    def _by_path(self, path: str):
        normalized = re.sub(r"/SKILL\.md$", "", path)
        for candidates in self.skills.values():
            for s in candidates:
                if s["path"] == normalized:
                    return s
        return None

    def _resolve(self, name: str):
        return self._by_name(name) or self._by_path(name)

    # the WorkspaceSkills interface

    def list(self) -> list[dict]:
        self._ensure()
        out = []
        for candidates in self.skills.values():
            for s in self._dedupe(candidates):
                out.append({k: s[k] for k in ("name", "path", "description", "license", "compatibility",
                                              "user-invocable", "metadata") if k in s})
        return out

    def _by_alias(self, location: str):
        """A registered location alias, tried last so canonical names and paths win."""
        target = self._location_aliases.get(location) or self._location_aliases.get(
            re.sub(r"/SKILL\.md$", "", location))
        return self._by_path(target) if target else None

    def register_location_alias(self, location: str, skill_path: str) -> None:
        """`registerLocationAlias`: the location, and its /SKILL.md-stripped form, resolve to the skill."""
        self._location_aliases[location] = skill_path
        normalized = re.sub(r"/SKILL\.md$", "", location)
        if normalized != location:
            self._location_aliases[normalized] = skill_path

    def get(self, name: str):
        self._ensure()
        return self._resolve(name) or self._by_alias(name)

    def has(self, name: str) -> bool:
        self._ensure()
        return (self._resolve(name) or self._by_alias(name)) is not None

    def add_skill(self, skill_path: str) -> None:
        """`addSkill`: parse one skill (its folder or its SKILL.md) into the cache and the index; a skill
        already cached at that path is replaced (its old index entries removed first)."""
        self._ensure()
        if _is_skill_file(skill_path):
            skill_file = skill_path
            dir_name = (_segments(_parent(skill_path)) or ["unknown"])[-1] or "unknown"
        else:
            skill_file = _join(skill_path, "SKILL.md")
            dir_name = (_segments(skill_path) or ["unknown"])[-1] or "unknown"
        source = _source_of(skill_path)  # inferSource: the configured path the skill is under, else its own
        for rp in self.resolved_paths:
            if skill_path == rp or skill_path.startswith(rp + "/"):
                source = _source_of(rp)
                break
        skill = self._parse(skill_file, dir_name, source)
        candidates = self.skills.setdefault(skill["name"], [])
        for i, s in enumerate(candidates):
            if s["path"] == skill["path"]:
                self._unindex(s)
                candidates[i] = skill
                break
        else:
            candidates.append(skill)
        self._index(skill)
        self._last_discovery_time = date.now()  # so maybeRefresh does not re-walk at once

    def remove_skill(self, name: str) -> None:
        """`removeSkill`: by name (the tie-break winner), else by path; unknown is a no-op."""
        self._ensure()
        skill = self._by_name(name) or self._by_path(name)
        if skill is None:
            return
        self._unindex(skill)
        candidates = self.skills.get(skill["name"])
        if candidates:
            candidates[:] = [s for s in candidates if s["path"] != skill["path"]]
            if not candidates:
                del self.skills[skill["name"]]
        self._last_discovery_time = date.now()

    def maybe_refresh(self, context: dict | None = None) -> None:
        """Paths that changed (a paths function of the context) refresh at once; otherwise the catalog
        is refreshed when the staleness check finds a change (never within 30 s of a discovery)."""
        self._ensure()
        current = self._resolve_paths(context)
        if sorted(current) != sorted(self.resolved_paths):  # #arePathsEqual: order-independent
            self.resolved_paths = current
            self.refresh()
        elif self._is_stale():
            self.refresh()

    def _stat(self, path: str) -> tuple[str, int]:
        """The source's stat of a path: its type and its mtime in ms (a FileStat or a source's dict)."""
        st = self.source.stat(path)
        kind, modified = (st["type"], st["modifiedAt"]) if isinstance(st, dict) else (st.type, st.modifiedAt)
        return kind, round(modified.timestamp() * 1000)

    def _newer(self, path: str, want_file: bool = False) -> bool:
        """Whether path (a file, when want_file) was modified after the last discovery; unreadable: no."""
        try:
            kind, mtime = self._stat(path)
        except Exception:
            return False
        return (kind == "file" or not want_file) and mtime > self._last_discovery_time

    def _is_stale(self) -> bool:
        """#isSkillsPathStale: after the cooldown, a skills path, one of its skill folders or (with
        checkSkillFileMtime) a SKILL.md with an mtime after the last discovery. A glob path's folders
        are re-resolved at most every 5 s."""
        if self._last_discovery_time == 0:
            return True
        if date.now() - self._last_discovery_time < STALENESS_CHECK_COOLDOWN:
            return False
        from ..glob import resolve_path_pattern
        for skills_path in self.resolved_paths:
            if is_glob_pattern(skills_path):
                now = date.now()
                last = self._glob_resolve_times.get(skills_path, 0)
                if now - last > GLOB_RESOLVE_INTERVAL or skills_path not in self._glob_dir_cache:
                    resolved = resolve_path_pattern(skills_path, self._readdir, dot=True, max_depth=4)
                    self._glob_dir_cache[skills_path] = self._glob_dirs(resolved)
                    self._glob_resolve_times[skills_path] = now
                paths_to_check = self._glob_dir_cache.get(skills_path, [])
            else:
                paths_to_check = [skills_path]
            for path in paths_to_check:
                try:
                    kind, mtime = self._stat(path)
                    if mtime > self._last_discovery_time:
                        return True
                    if kind != "directory":
                        continue
                    if self.check_skill_file_mtime and self._newer(_join(path, "SKILL.md"), want_file=True):
                        return True
                    for entry in self._readdir(path):
                        if entry["type"] != "directory":
                            continue
                        entry_path = _join(path, entry["name"])
                        if self._newer(entry_path):
                            return True
                        if self.check_skill_file_mtime and self._newer(_join(entry_path, "SKILL.md"), want_file=True):
                            return True
                except Exception:
                    continue  # a path that cannot be read: the next one
        return False

    def refresh(self) -> None:
        if self.assert_available:
            self.assert_available()
        new: dict[str, list[dict]] = {}
        self._discover(new)
        old = self.skills
        self.skills = new
        self.initialized = True
        self._reconcile(old, new)

    def _file(self, name: str, rel: str, label: str):
        self._ensure()
        skill = self._resolve(name)
        if skill is None:
            return None
        path = _join(skill["path"], _assert_relative(rel, label))
        if not self._exists(path):
            return None
        try:
            return self.source.read_file(path)
        except Exception:
            return None

    def get_reference(self, name: str, path: str):
        data = self._file(name, path, "reference")
        return None if data is None else data.decode("utf-8", "replace")

    def get_script(self, name: str, path: str):
        data = self._file(name, path, "script")
        return None if data is None else data.decode("utf-8", "replace")

    def get_asset(self, name: str, path: str):
        return self._file(name, path, "asset")

    def _listing(self, name: str, key: str) -> list[str]:
        self._ensure()
        skill = self._resolve(name)
        return skill[key] if skill else []

    def list_references(self, name: str) -> list[str]:
        return self._listing(name, "references")

    def list_scripts(self, name: str) -> list[str]:
        return self._listing(name, "scripts")

    def list_assets(self, name: str) -> list[str]:
        return self._listing(name, "assets")

    def search(self, query: str, options: dict | None = None) -> list[dict]:
        self._ensure()
        options = options or {}
        top_k = options.get("topK")
        top_k = 5 if top_k is None else top_k
        names = options.get("skillNames")
        include_refs = options.get("includeReferences", True) is not False
        if self.search_engine is None:
            return self._simple_search(query, top_k, names, include_refs)
        total = sum(1 + len(s["references"]) for c in self.skills.values() for s in c)
        expanded = max(top_k * 3 if names else top_k, total)
        found = self.search_engine.search(query, {"topK": expanded, "minScore": options.get("minScore"),
                                                  "mode": options.get("mode")})
        results, seen = [], set()
        for r in found:
            meta = r.get("metadata") or {}
            skill_path, source = meta.get("skillPath"), meta.get("source")
            if not skill_path or not source:
                continue
            matched = self._by_path(skill_path)
            if matched is None:
                continue
            skill = self._by_name(matched["name"]) or matched
            if names is not None and skill["name"] not in names:
                continue
            if not include_refs and source != "SKILL.md":
                continue
            key = f"{skill['path']}:{source}"
            if key in seen:
                continue
            seen.add(key)
            results.append({"skillName": skill["name"], "skillPath": skill["path"], "source": source,
                            "content": r["content"], "score": r["score"], "lineRange": r.get("lineRange"),
                            "scoreDetails": r.get("scoreDetails")})
            if len(results) >= top_k:
                break
        return results

    def _simple_search(self, query: str, top_k, names, include_refs) -> list[dict]:
        q = query.lower()
        results = []
        for candidates in self.skills.values():
            skill = self._tie_break(candidates)
            if skill is None or (names is not None and skill["name"] not in names):
                continue
            if q in skill["instructions"].lower():
                results.append({"skillName": skill["name"], "skillPath": skill["path"], "source": "SKILL.md",
                                "content": _js_substring(skill["instructions"], 200), "score": 1})
            if include_refs:
                for ref in skill["references"]:
                    if len(results) >= top_k:
                        break
                    content = self.get_reference(skill["name"], f"references/{ref}")
                    if content and q in content.lower():
                        results.append({"skillName": skill["name"], "skillPath": skill["path"],
                                        "source": f"references/{ref}", "content": _js_substring(content, 200),
                                        "score": 0.8})
            if len(results) >= top_k:
                break
        return results[:top_k]


# -- the skill tools --------------------------------------------------------------------------------


def _js_substring(text: str, end: int) -> str:
    units = text.encode("utf-16-le", "surrogatepass")
    return units[:2 * end].decode("utf-16-le", "surrogatepass")
