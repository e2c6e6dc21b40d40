"""A case in plain words, as `wsconf show` prints it: its claims, setup, calls and every expected
result, texts shown literally with the diffs' glyphs (render.visible)."""
from __future__ import annotations

import json

import yaml

from ..judge.render import CR, SPACE, visible

# The glyphs render.visible puts in a text, and what each stands for (the legend under `wsconf show`).
GLYPHS = (("⇥", "a tab"), (CR, "a carriage return"), (SPACE, "a trailing space"), ("⏎̸", "the text has no final newline"))


def case_lines(case, spec) -> list[str]:
    """The case's claims (with their quotes and errata flags), setup, workspace and steps."""
    body = body_lines(case)
    return ([f"{case.id}  ({case.file}:{case.line})", f"  {case.title}", "", "Checks:"] + claim_lines(case, spec)
            + body + legend(body))  # the pages' own words above: only what is shown below has glyphs


def claim_lines(case, spec) -> list[str]:
    out = []
    for cid in case.claims:
        claim = spec.claims[cid]
        flag = f" [{claim.status}: {claim.observed or claim.reason}]" if claim.status else ""
        out.append(f"  {cid} ({claim.page}, {claim.section}): \"{claim.quote}\"{flag}")
    return out


def body_lines(case) -> list[str]:
    """What the case needs, its setup tree, its workspace and every step with its expected result."""
    out = []
    if case.needs:
        out.append(f"Needs: {', '.join(case.needs)}")
    if case.setup:
        out += ["", "Setup:"] + _setup_lines(case.setup, "  ")
    if case.workspace:
        out += ["", "Workspace:"] + ["  " + line for line in yaml.safe_dump(case.workspace, allow_unicode=True, sort_keys=False).splitlines()]
    if case.open_error:
        out += ["", "Opening the workspace:"]
        out += _expect_lines(case.open_error)
    for step in case.steps:
        out.append("")
        out += _step_lines(step)
    return out


# What each kind of step asks, in the words of spec/README.md ("Steps"): the protocol op it uses.
_STEP_WORDS = {
    "list_tools": "the workspace's tools, as the `tools` op lists them (name, description, inputSchema, requireApproval)",
    "retool": "build the tools again from the current tools configuration, a new agent interaction "
              "(the `retool` op); its value is the tool names",
    "hook_log": "what the recording host hooks and logger wrote so far (the `hookLog` op)",
}
def _step_lines(step: dict) -> list[str]:
    """One step: what it calls, with which arguments, and every expectation."""
    head = f"Step {step['id']}: "
    def args(default):
        return json.dumps(step.get("args", default), ensure_ascii=False)
    if "host" in step:
        return [head + f"the harness changes the tree: {json.dumps(step['host'], ensure_ascii=False)}"] + _after(step)
    if "wait" in step:
        wait = step["wait"]
        return [head + f"the harness waits until {json.dumps(wait['until'], ensure_ascii=False)}, at most "
                       f"{wait.get('timeout_ms')} ms, then goes on (a wait never fails by itself)"] + _after(step)
    if "concurrent" in step:
        out = [head + "these tool calls, started together in order (the `calls` op):"]
        for call in step["concurrent"]:
            out.append(f"  {call['tool']}({json.dumps(call.get('args', {}), ensure_ascii=False)})")
            out += ["  " + line for line in _expect_lines(call.get("expect") or {})]
        return out + _after(step)
    if "tool" in step:
        out = [head + f"{step['tool']}({args({})})"]
    elif "fs" in step:
        out = [head + f"fs.{step['fs']}({args([])[1:-1]}), a WorkspaceFilesystem method (the `fs` op)"]
    elif "workspace" in step:
        out = [head + f"workspace.{step['workspace']}({args([])[1:-1]}), a Workspace method or property "
                      "(the `workspace` op)"]
    elif "tool_info" in step:
        out = [head + f"tool_info {step['tool_info']}: that tool as the `tools` op lists it, with `size` "
                      "measured by the harness from its description (JavaScript string length, UTF-8 bytes, "
                      "lines, o200k_base tokens), not answered by the implementation"]
    elif "needs_approval" in step:
        out = [head + f"needs_approval {step['needs_approval']}({args({})}): the tool's needsApprovalFn on these "
                      "arguments (the `needsApproval` op)"]
    elif "agent" in step:
        out = [head + "an agent run with a scripted model (the `agent` op): "
                      + json.dumps(step["agent"], ensure_ascii=False)]
    elif "group" in step:
        out = [head + f"{len(step['group'])} tool calls issued together (the `group` op):"]
        out += [f"  {call['tool']}({json.dumps(call.get('args', {}), ensure_ascii=False)})" for call in step["group"]]
    else:
        kind = next(k for k in _STEP_WORDS if k in step)
        out = [head + _STEP_WORDS[kind]]
    return out + _option_lines(step) + _expect_lines(step.get("expect") or {}) + _after(step)


def _option_lines(step: dict) -> list[str]:
    """How the step's call differs from a plain one (spec/README.md, "Steps")."""
    out = []
    if "request_context" in step:
        out.append(f"  with its own request context {json.dumps(step['request_context'], ensure_ascii=False)}")
    if "abort_after_ms" in step:
        out.append(f"  with an abort signal that fires {step['abort_after_ms']} ms after the call starts")
    if step.get("agent_context") is False:
        out.append("  without the agent part of its context (no toolCallId)")
    if "tracing_field" in step:
        out.append(f"  with the recording span at context.{step['tracing_field']}.currentSpan")
    if step.get("identity"):
        out.append("  answered as which object it returned ({\"$instance\": n})")
    if "captures" in step:
        out.append(f"  captures {json.dumps(step['captures'], ensure_ascii=False)} for later steps")
    return out


def _after(step: dict) -> list[str]:
    return [f"  afterwards: {json.dumps(step['after'], ensure_ascii=False)}"] if "after" in step else []


def legend(lines: list[str]) -> list[str]:
    """What the glyphs shown stand for (render.visible), when any is shown."""
    used = [f"{glyph} {meaning}" for glyph, meaning in GLYPHS if any(glyph in line for line in lines)]
    return ["", "Glyphs: " + "; ".join(used)] if used else []


def _literal(text: str, indent: str) -> list[str]:
    """A text as it is, line by line, with the diffs' glyphs for tabs, CRs, trailing blanks, no final newline."""
    return [indent + line for line in visible(text).split("\n")]
def _content_lines(content, indent: str) -> list[str]:
    if isinstance(content, str):
        return _literal(content, indent)
    if isinstance(content, dict) and "text" in content:
        extra = {k: v for k, v in content.items() if k != "text"}
        return ([indent + f"({json.dumps(extra, ensure_ascii=False)})"] if extra else []) + _literal(content["text"], indent)
    if isinstance(content, dict) and "repeat" in content:
        return (_literal(content["prefix"], indent) if content.get("prefix") else []) + \
            [indent + f"{content['times']} times:"] + _literal(content["repeat"], indent + "  ") + \
            (_literal(content["suffix"], indent) if content.get("suffix") else [])
    return [indent + json.dumps(content, ensure_ascii=False)]  # {hex: ...} or {base64: ...}
def _setup_lines(setup: dict, indent: str) -> list[str]:
    out = []
    for name, content in (setup.get("files") or {}).items():
        out.append(f"{indent}file {name}:")
        out += _content_lines(content, indent + "  | ")
    for name in setup.get("dirs") or []:
        out.append(f"{indent}folder {name}/")
    for name, target in (setup.get("symlinks") or {}).items():
        out.append(f"{indent}link {name} -> {target}")
    for name, mode in (setup.get("modes") or {}).items():
        out.append(f"{indent}mode {mode} on {name}")
    if setup.get("outside"):
        out.append(f"{indent}outside the root ({{{{outside}}}}):")
        out += _setup_lines(setup["outside"], indent + "  ")
    known = {"files", "dirs", "symlinks", "modes", "outside"}
    for key in [k for k in setup if k not in known]:
        out.append(f"{indent}{key}: {json.dumps(setup[key], ensure_ascii=False)}")
    return out
def _text_lines(label: str, text) -> list[str]:
    """An expected text, literally; one given in parts ({"$string": [...]}, a huge output) part by part."""
    if isinstance(text, dict) and "$string" in text:
        return [f"  {label}, made of these parts in order:"] + [
            "    " + (json.dumps(part, ensure_ascii=False) if isinstance(part, str)
                      else f"{json.dumps(part['repeat'], ensure_ascii=False)} {part['times']} times")
            for part in text["$string"]]
    return [f"  {label}:"] + _literal(text, "    | ")


def _expect_lines(expect: dict) -> list[str]:
    """Every expectation of a step (or of opening the workspace), in plain words."""
    out = []
    labels = {"text": "returns this text", "error": "throws with this message", "model_text": "and the model is shown"}
    for key in ("text", "error"):
        if key in expect:
            out += _text_lines(labels[key], expect[key])
    if "error_code" in expect:
        out.append(f"  with code {expect['error_code']}")
    if "error_name" in expect:
        out.append(f"  named {expect['error_name']}")
    if "media" in expect:
        out.append(f"  returns media {json.dumps(expect['media'], ensure_ascii=False)}")
    if "value" in expect:
        out.append(f"  returns the value {json.dumps(expect['value'], ensure_ascii=False)}")
    if "model_text" in expect:
        out += _text_lines(labels["model_text"], expect["model_text"])
    if "model" in expect:
        out.append(f"  and the model output is {json.dumps(expect['model'], ensure_ascii=False)}")
    shown = {"text", "error", "error_code", "error_name", "media", "value", "model_text", "model"}
    for key in [k for k in expect if k not in shown]:
        out.append(f"  {key}: {json.dumps(expect[key], ensure_ascii=False)}")
    return out
