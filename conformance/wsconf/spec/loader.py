"""The spec as data: load and validate claims, capabilities and cases.

Every problem becomes a SpecError naming file, line and key; a bad file never stops the
others from loading (the harness reports the errors and runs what did load).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import yaml

from .cache import cached_load
from .ops import CORE_OPS, FILE_CAPABILITIES, ops_beyond_core
from .placeholders import unknown_placeholders
from .states import load_states, states_file
from .resources import data_path
from .tool_names import family_of
from .yaml_lines import load_with_lines

DEFAULT_SPEC_DIR = data_path("spec")


@dataclass(frozen=True)
class SpecError:
    file: str
    line: int
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.key or '<top>'}: {self.message}"


@dataclass(frozen=True)
class Claim:
    id: str
    page: str
    quote: str
    section: str = ""
    status: str | None = None
    observed: str | None = None
    reason: str | None = None


@dataclass
class Case:
    id: str
    tool: str
    title: str
    claims: list[str]
    file: str
    line: int
    tags: list[str] = field(default_factory=list)
    needs: list[str] = field(default_factory=list)
    versions: str | None = None
    notes: str | None = None
    setup: dict = field(default_factory=dict)
    workspace: dict = field(default_factory=dict)
    touches_outside: bool = False
    leaves_running: list[str] = field(default_factory=list)   # commands expected to outlive close
    steps: list[dict] = field(default_factory=list)
    open_error: dict | None = None
    states: dict | None = None  # the root's pinned states (spec/states/), when there are
    lenient: tuple[str, ...] = ()  # needs an implementation may lack: the case then judges refusals only

    @cached_property
    def tools_called(self) -> tuple[str, ...]:
        """The tool ids the steps call or describe, in order: a renamed tool counts as its own id."""
        renamed = {}

        def note_renames(tools_config):
            for tool_id, conf in (tools_config or {}).items() if isinstance(tools_config, dict) else ():
                if isinstance(conf, dict) and isinstance(conf.get("name"), str):
                    renamed[conf["name"]] = tool_id

        note_renames((self.workspace or {}).get("tools"))
        for step in self.steps:  # a rename at run time (setToolsConfig)
            if step.get("workspace") == "setToolsConfig" and step.get("args"):
                note_renames(step["args"][0])
        called = []
        for step in self.steps:
            for name in [step.get("tool") or step.get("tool_info") or step.get("needs_approval")] + [
                    c.get("tool") for c in step.get("concurrent", [])]:
                if isinstance(name, str):
                    tool_id = renamed.get(name, name)
                    if tool_id not in called:
                        called.append(tool_id)
        return tuple(called)

    @cached_property
    def families(self) -> tuple[str, ...]:
        """The tool families the case counts under: each tool it calls, else its file's family (asked
        for a million times in building the site: computed once)."""
        return tuple(family_of(t) for t in self.tools_called) or (self.tool,)

    @property
    def raw(self) -> dict:
        """The case as the spec writes it (for export and `wsconf show`)."""
        keys = ("id", "title", "claims", "tags", "needs", "versions", "notes", "setup",
                "workspace", "touches_outside", "leaves_running", "open_error", "steps")
        return {"tool": self.tool} | {k: getattr(self, k) for k in keys if getattr(self, k) not in (None, [], {}, False)}


def _key(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@dataclass
class Spec:
    root: Path
    claims: dict[str, Claim]
    capabilities: dict[str, str]
    cases: list[Case]
    errors: list[SpecError]

    @cached_property
    def cases_by_id(self) -> dict[str, Case]:
        return {c.id: c for c in self.cases}


def _schema(name: str) -> jsonschema.Draft202012Validator:
    import jsonschema  # here, not at the top: a cached load never needs it (60 ms to import)
    schema = json.loads((DEFAULT_SPEC_DIR / "schema" / name).read_text())
    return jsonschema.Draft202012Validator(schema)


def _schema_for(spec_root: Path, name: str) -> jsonschema.Draft202012Validator:
    import jsonschema
    path = spec_root / "schema" / name
    if not path.exists():
        return _schema(name)
    return jsonschema.Draft202012Validator(json.loads(path.read_text()))


def _load_file(path: Path, spec_root: Path, validator, errors: list[SpecError]):
    rel = str(path.relative_to(spec_root.parent)) if path.is_relative_to(spec_root.parent) else str(path)
    try:
        data, lines = load_with_lines(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", -1) + 1 or 1
        errors.append(SpecError(rel, max(line, 1), "", f"not valid YAML: {exc}"))
        return rel, None, None
    found = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    bad_items = set()
    for err in found:
        path_ = tuple(err.absolute_path)
        errors.append(SpecError(rel, lines.line_of(path_), _key(path_), _schema_message(err)))
        if len(path_) >= 2 and path_[0] in ("cases", "claims", "capabilities") and isinstance(path_[1], int):
            bad_items.add(path_[1])
        else:
            return rel, None, lines  # the file's own shape is wrong: nothing in it can be trusted
    if bad_items:
        # Keep the good entries of a file: one bad case must not hide the others.
        key = next(k for k in ("cases", "claims", "capabilities") if k in data)
        data = dict(data)
        data[key] = [item if i not in bad_items else None for i, item in enumerate(data[key])]
    return rel, data, lines


def _schema_message(err: jsonschema.ValidationError) -> str:
    if err.validator == "additionalProperties" or err.validator == "unevaluatedProperties":
        return f"unknown key: {err.message}"
    if err.validator == "oneOf" and err.context:
        # Name the closest alternative's complaint instead of jsonschema's generic text.
        import jsonschema
        best = jsonschema.exceptions.best_match(err.context)
        return f"{err.message.split(' is not valid')[0][:60]} does not fit any allowed form ({best.message})"
    return err.message


def load_spec(spec_root: Path | str | None = None) -> Spec:
    """The spec under spec_root, loaded once per content (see spec_cache): callers share one Spec."""
    spec_root = Path(spec_root or DEFAULT_SPEC_DIR).resolve()
    return cached_load(spec_root, DEFAULT_SPEC_DIR, _load_from_files)


def _load_from_files(spec_root: Path) -> Spec:
    errors: list[SpecError] = []

    claims: dict[str, Claim] = {}
    rel, data, lines = _load_file(spec_root / "claims.yaml", spec_root,
                                  _schema_for(spec_root, "claims.schema.json"), errors)
    for i, item in enumerate((data or {}).get("claims", [])):
        if item is None:
            continue
        if item["id"] in claims:
            errors.append(SpecError(rel, lines.line_of(("claims", i, "id")), f"claims[{i}].id",
                                    f"duplicate claim id {item['id']!r}"))
            continue
        claims[item["id"]] = Claim(**item)

    capabilities: dict[str, str] = {}
    refusals_only: set[str] = set()
    former: dict[str, list[str]] = {}
    rel, data, lines = _load_file(spec_root / "capabilities.yaml", spec_root,
                                  _schema_for(spec_root, "capabilities.schema.json"), errors)
    for item in (data or {}).get("capabilities", []):
        if item is None:
            continue
        capabilities[item["id"]] = item["description"]
        if item.get("alias_of"):
            former[item["id"]] = item["alias_of"]
        if item.get("without") == "refusals_only":
            refusals_only.add(item["id"])

    cases: list[Case] = []
    seen: dict[str, str] = {}
    validator = _schema_for(spec_root, "cases.schema.json")
    for path in sorted((spec_root / "cases").rglob("*.y*ml")):
        rel, data, lines = _load_file(path, spec_root, validator, errors)
        if data is None:
            continue
        for i, raw in enumerate(data["cases"]):
            if raw is None:
                continue
            where = ("cases", i)
            problems = _check_case(raw, claims, capabilities, seen, rel, former)
            for key_path, message in problems:
                full = where + key_path
                errors.append(SpecError(rel, lines.line_of(full), _key(full), message))
            if problems:
                continue
            seen[raw["id"]] = rel
            cases.append(Case(tool=data["tool"], file=rel, line=lines.line_of(where),
                              lenient=tuple(n for n in raw.get("needs", ()) if n in refusals_only), **raw))
        _attach_states(path, spec_root, [c for c in cases if c.file == rel], errors)
    return Spec(spec_root, claims, capabilities, cases, errors)


def _attach_states(case_file: Path, spec_root: Path, cases: list[Case], errors: list[SpecError]) -> None:
    """The pinned states of a case file's cases; a state for a case or step the file lacks is an error."""
    path = states_file(spec_root, case_file)
    pinned, problems = load_states(path)
    rel = str(path.relative_to(spec_root.parent))
    errors.extend(SpecError(rel, 1, key, message) for key, message in problems)
    by_id = {c.id: c for c in cases}
    for case_id, states in pinned.items():
        case = by_id.get(case_id)
        if case is None:
            errors.append(SpecError(rel, 1, f"cases.{case_id}", f"states for a case {case_file.name} does not have"))
            continue
        step_ids = {s["id"] for s in case.steps if "id" in s}
        unknown = sorted(set(states["steps"]) - step_ids)
        if unknown:
            errors.append(SpecError(rel, 1, f"cases.{case_id}.steps", f"states for steps the case does not have: "
                                                                         f"{', '.join(unknown)}"))
            continue
        case.states = states


def _check_case(raw: dict, claims, capabilities, seen, rel, former=None) -> list[tuple[tuple, str]]:
    """Cross-file checks the JSON Schema cannot express. former: the alias capabilities."""
    problems = []
    former = former or {}
    if raw["id"] in seen:
        problems.append((("id",), f"duplicate case id {raw['id']!r} (first in {seen[raw['id']]})"))
    if raw.get("versions") is not None:
        from .versions import RangeError, parse
        try:
            parse(raw["versions"])
        except RangeError as exc:
            problems.append((("versions",), str(exc)))
    for j, claim in enumerate(raw["claims"]):
        if claim not in claims:
            problems.append((("claims", j), f"unknown claim id {claim!r}"))
    for j, need in enumerate(raw.get("needs", [])):
        if need not in capabilities:
            problems.append((("needs", j), f"unknown capability {need!r} (see spec/capabilities.yaml)"))
        elif need in former:
            problems.append((("needs", j), f"{need!r} is a former capability: name which of "
                                            f"{', '.join(former[need])} the case needs"))
    beyond = ops_beyond_core(raw) if set(raw.get("needs", [])) <= set(FILE_CAPABILITIES) else []
    if beyond:
        problems.append((("needs",), f"a case needing only file capabilities uses only the ops {', '.join(CORE_OPS)}; "
                                     f"its steps use {', '.join(beyond)}: add the capability that brings "
                                     f"{'them' if len(beyond) > 1 else 'it'} (spec/first-port.md)"))
    if (raw.get("setup") or {}).get("symlinks") and "symlinks" not in raw.get("needs", []):
        problems.append((("setup", "symlinks"), "setup.symlinks needs the capability symlinks (a provider without "
                                                 "links cannot make them)"))
    step_ids = set()
    for j, step in enumerate(raw.get("steps", [])):
        if step["id"] in step_ids:
            problems.append((("steps", j, "id"), f"duplicate step id {step['id']!r}"))
        step_ids.add(step["id"])
        expect = step.get("expect") or {}
        if "tracing_field" in step and "spans" not in expect:
            problems.append((("steps", j, "tracing_field"), "tracing_field needs expect.spans (it only says where "
                                                            "the recording span goes)"))
        if ("spans" in expect) and "tool" not in step:
            problems.append((("steps", j, "expect", "spans"), "expect.spans is for tool calls only"))
        if "error_details" in expect and ("error" not in expect or "error_details" not in raw.get("needs", [])):
            problems.append((("steps", j, "expect", "error_details"), "expect.error_details goes with expect.error and "
                                                                      "the capability error_details"))
        if "spans" in expect and "tool_tracing" not in raw.get("needs", []):
            problems.append((("steps", j, "expect", "spans"), "expect.spans needs the capability tool_tracing"))
    for key_path, bad in unknown_placeholders(raw):
        problems.append((key_path, f"unknown placeholder {bad} (known: see spec/README.md)"))
    problems.extend(_string_form_problems(raw.get("steps", []), ("steps",)))
    return problems


def _string_form_problems(value, key_path: tuple) -> list[tuple[tuple, str]]:
    """A `{"$string": [...]}` expected value must be a list of strings and {repeat: str, times: int}."""
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _string_form_problems(v, key_path + (i,))]
    if not isinstance(value, dict):
        return []
    if "$string" not in value:
        return [p for k, v in value.items() for p in _string_form_problems(v, key_path + (k,))]
    parts = value["$string"]
    good = len(value) == 1 and isinstance(parts, list) and all(
        isinstance(p, str) or (isinstance(p, dict) and p.keys() == {"repeat", "times"} and isinstance(p["repeat"], str)
                               and isinstance(p["times"], int) and not isinstance(p["times"], bool) and p["times"] >= 0)
        for p in parts)
    return [] if good else [(key_path + ("$string",), "$string takes only a list of strings and {repeat: <string>, "
                                                      "times: <whole number>}")]


_PAGE_WS = re.compile(r"\s+")


def quote_problems(spec: Spec, pages_dir: Path) -> list[str]:
    """Claims whose quote is not verbatim on its page (whitespace collapsed)."""
    pages = {}
    out = []
    for claim in spec.claims.values():
        if claim.page not in pages:
            page = pages_dir / claim.page
            pages[claim.page] = _PAGE_WS.sub(" ", page.read_text(encoding="utf-8")) if page.exists() else None
        text = pages[claim.page]
        if text is not None and _PAGE_WS.sub(" ", claim.quote).strip() not in text:
            out.append(f"{claim.id}: quote not found verbatim on {claim.page}")
    return out
