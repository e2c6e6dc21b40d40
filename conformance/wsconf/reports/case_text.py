"""A case in plain words, as `wsconf show` prints it: its claims, setup, calls and every expected
result, texts shown literally with the diffs' glyphs (render.visible)."""
from __future__ import annotations

import json

import yaml

from ..judge.render import visible


def case_lines(case, spec) -> list[str]:
    """The case's claims (with their quotes and errata flags), setup, workspace and steps."""
    out = [f"{case.id}  ({case.file}:{case.line})", f"  {case.title}", ""]
    out.append("Checks:")
    for cid in case.claims:
        claim = spec.claims[cid]
        flag = f" [{claim.status}: {claim.observed or claim.reason}]" if claim.status else ""
        out.append(f"  {cid} ({claim.page}, {claim.section}): \"{claim.quote}\"{flag}")
    if case.needs:
        out.append(f"Needs: {', '.join(case.needs)}")
    if case.setup:
        out += ["", "Setup:"] + _setup_lines(case.setup, "  ")
    if case.workspace:
        out += ["", "Workspace:"] + ["  " + line for line in yaml.safe_dump(case.workspace, allow_unicode=True, sort_keys=False).splitlines()]
    if case.open_error:
        out += ["", "Opening the workspace throws with this message:"]
        out += _expect_lines(case.open_error)
    for step in case.steps:
        out.append("")
        if "host" in step:
            out.append(f"Step {step['id']}: the harness changes the tree: {json.dumps(step['host'])}")
            continue
        if "concurrent" in step:
            out.append(f"Step {step['id']}: these calls, started together in order:")
            for call in step["concurrent"]:
                out.append(f"  {call['tool']}({json.dumps(call.get('args', {}), ensure_ascii=False)})")
                out += ["  " + line for line in _expect_lines(call.get("expect") or {})]
            continue
        target = step.get("tool") or (f"fs.{step['fs']}" if "fs" in step else "list tools")
        out.append(f"Step {step['id']}: {target}({json.dumps(step.get('args', {}), ensure_ascii=False)})")
        out += _expect_lines(step.get("expect") or {})
        if "after" in step:
            out.append(f"  afterwards: {json.dumps(step['after'], ensure_ascii=False)}")
    return out


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
def _expect_lines(expect: dict) -> list[str]:
    """Every expectation of a step (or of opening the workspace), in plain words."""
    out = []
    labels = {"text": "returns this text", "error": "throws with this message", "model_text": "and the model is shown"}
    for key in ("text", "error"):
        if key in expect:
            out.append(f"  {labels[key]}:")
            out += _literal(expect[key], "    | ")
    if "error_code" in expect:
        out.append(f"  with code {expect['error_code']}")
    if "error_name" in expect:
        out.append(f"  named {expect['error_name']}")
    if "media" in expect:
        out.append(f"  returns media {json.dumps(expect['media'], ensure_ascii=False)}")
    if "value" in expect:
        out.append(f"  returns the value {json.dumps(expect['value'], ensure_ascii=False)}")
    if "model_text" in expect:
        out.append(f"  {labels['model_text']}:")
        out += _literal(expect["model_text"], "    | ")
    if "model" in expect:
        out.append(f"  and the model output is {json.dumps(expect['model'], ensure_ascii=False)}")
    shown = {"text", "error", "error_code", "error_name", "media", "value", "model_text", "model"}
    for key in [k for k in expect if k not in shown]:
        out.append(f"  {key}: {json.dumps(expect[key], ensure_ascii=False)}")
    return out
