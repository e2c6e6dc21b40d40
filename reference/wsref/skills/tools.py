"""The skill tools (upstream `skills/tools.ts`): skill, skill_search and skill_read, as the agent adds them."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from ..js.strings import js_number
from .workspace_skills import WorkspaceSkills, _js_substring

_DRAFT7 = "http://json-schema.org/draft-07/schema#"


def js_to_fixed(x: float, digits: int) -> str:
    """Number.prototype.toFixed: the exact value rounded half up (not Python's half-even)."""
    q = Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{q:.{digits}f}"


SKILL_TOOLS = {
    "skill": (
        "Activate a skill to load its full instructions. You should activate skills proactively when they are "
        "relevant to the user's request without asking for permission first.",
        {"$schema": _DRAFT7, "type": "object", "properties": {
            "name": {"type": "string", "description": "The name or path of the skill to activate. Use the path "
                                                      "when multiple skills share the same name."}},
         "required": ["name"], "additionalProperties": False}),
    "skill_search": (
        "Search across skill content to find relevant information. Useful when you need to find specific details "
        "within skills.",
        {"$schema": _DRAFT7, "type": "object", "properties": {
            "query": {"type": "string", "description": "The search query"},
            "skillNames": {"description": "Optional list of skill names to search within", "type": "array",
                           "items": {"type": "string"}},
            "topK": {"description": "Maximum number of results to return (default: 5)", "type": "number"}},
         "required": ["query"], "additionalProperties": False}),
    "skill_read": (
        "Read a file from a skill directory (references, scripts, or assets). The path is relative to the skill "
        "root.",
        {"$schema": _DRAFT7, "type": "object", "properties": {
            "skillName": {"type": "string", "description": "The name or path of the skill. Use the path when "
                                                           "multiple skills share the same name."},
            "path": {"type": "string", "description": "Path to the file relative to the skill root (e.g. "
                                                      "\"references/colors.md\", \"scripts/run.sh\")"},
            "startLine": {"description": "Starting line number (1-indexed). If omitted, starts from the beginning.",
                          "type": "number"},
            "endLine": {"description": "Ending line number (1-indexed, inclusive). If omitted, reads to the end.",
                        "type": "number"}},
         "required": ["skillName", "path"], "additionalProperties": False}),
}


def format_activation(skill: dict) -> str:
    parts = [skill["instructions"]]
    if skill["references"]:
        parts.append("\n\n## References\n" + "\n".join(f"- references/{r}" for r in skill["references"]))
    if skill["scripts"]:
        parts.append("\n\n## Scripts\n" + "\n".join(f"- scripts/{s}" for s in skill["scripts"]))
    if skill["assets"]:
        parts.append("\n\n## Assets\n" + "\n".join(f"- assets/{a}" for a in skill["assets"]))
    return "".join(parts)


def _resolve_for_tool(skills: WorkspaceSkills, identifier: str):
    skills.maybe_refresh()
    skill = skills.get(identifier)
    if skill is not None:
        return skill, None
    entries = ", ".join(f"{s['name']} ({s['path']})" for s in skills.list())
    return None, f'Skill "{identifier}" not found. Available skills: {entries}'


def _num(x) -> str:
    return js_number(x)


def run_skill_tool(skills: WorkspaceSkills, name: str, args: dict):
    if name == "skill":
        skill, missing = _resolve_for_tool(skills, args["name"])
        return missing if skill is None else format_activation(skill)
    if name == "skill_search":
        skills.maybe_refresh()
        results = skills.search(args["query"], {"topK": args.get("topK"), "skillNames": args.get("skillNames")})
        if not results:
            return "No results found."
        out = []
        for r in results:
            content = r["content"]
            preview = _js_substring(content, 200) + ("..." if len(content.encode("utf-16-le")) // 2 > 200 else "")
            line_range = r.get("lineRange")
            location = (f" (lines {line_range['start']}-{line_range['end']})"
                        if isinstance(line_range, dict) else "")
            out.append(f"[{r['skillName']}]{location} (score: {js_to_fixed(r['score'], 2)})\n{preview}")
        return "\n\n".join(out)
    # skill_read
    skill_name, path = args["skillName"], args["path"]
    start_line, end_line = args.get("startLine"), args.get("endLine")
    skill, missing = _resolve_for_tool(skills, skill_name)
    if skill is None:
        return missing
    data = skills.get_asset(skill["path"], path)
    if data is None:
        files = ([f"references/{f}" for f in skills.list_references(skill["path"])]
                 + [f"scripts/{f}" for f in skills.list_scripts(skill["path"])]
                 + [f"assets/{f}" for f in skills.list_assets(skill["path"])])
        listing = f"\nAvailable files: {', '.join(files)}" if files else ""
        return f'File "{path}" not found in skill "{skill_name}".{listing}'
    text = data.decode("utf-8", "replace")
    if b"\x00" in data or text.encode("utf-8") != data:
        return f"Binary file: {skill['path']}/{path} ({len(data)} bytes)"
    lines = text.split("\n")
    total = len(lines)
    start = max(1, 1 if start_line is None else start_line)
    end = min(total, total if end_line is None else end_line)
    if start > end:
        if (1 if start_line is None else start_line) > total:
            reason = (f"Requested startLine {_num(start_line)} is past the end of the file. "
                      "The file has been fully read; stop paginating.")
        else:
            reason = (f"Requested range {_js_str(start_line)}-{_js_str(end_line)} is empty because startLine is "
                      "greater than endLine.")
        return f'File "{path}" has {total} lines (valid range 1-{total}). {reason}'
    content = "\n".join(lines[int(start) - 1:int(end)])
    if start_line is not None or end_line is not None:
        return f"{path} (lines {_num(start)}-{_num(end)} of {total})\n{content}"
    return content


def _js_str(x) -> str:
    return "undefined" if x is None else _num(x)


class SkillTool:
    """A skill tool as the agent adds it: not a workspace tool (no tools config, hooks or tracker)."""

    def __init__(self, name: str, skills: WorkspaceSkills):
        self.name = name
        self.id = name
        self.skills = skills
        self.description, self.input_schema = SKILL_TOOLS[name]
        self.require_approval = False
        self.coerce_numeric = ()

    def execute(self, args: dict):
        from ..validation import validate_input
        checked = validate_input(self, args)
        if isinstance(checked, dict) and checked.get("error") is True:
            return checked
        # every skill tool resolves the request-scoped view of this call's context (getScoped), skill_search
        # too (1.71.0); a view here has no search engine of its own, so it searches by substring
        skills = self.skills.get_scoped(getattr(self, "request_context", None))
        return run_skill_tool(skills, self.name, checked)

    def to_model_output(self, output):
        return None


def create_skill_tools(skills: WorkspaceSkills) -> dict:
    return {name: SkillTool(name, skills) for name in SKILL_TOOLS}

