"""Fresh cases: a few cases per tool made for this run alone, so an implementation cannot pass by
looking answers up (in the installed spec, or a table of the fixed cases' outputs).

Each is generated from the run's seed (new every run, in the results' first line; `--wsconf-fresh-seed`
makes a run again) with the alphabets of the property strategies (properties/strategies.py: plain
names, blanks and CRLF, a BOM, emoji and CJK text; never `{`, which would read as a placeholder).
Its expected answers are what the reference (wsref, in this process) answers to it, with the
folders, times and pids named as placeholders; the files it writes are checked byte for byte.

They are judged together, per tool, against the fixed cases: a tool whose fresh cases pass far less
often than its fixed ones (under half the rate) fails the run, "answers match the spec but not
fresh inputs". A port with honest known differences names the tool under `fresh:` in its
expectations file, with the reason, and is not failed for it.
"""
from __future__ import annotations

import random
import re
from dataclasses import replace

from ..adapters.reference import ReferenceAdapter
from ..judge.runner import ERROR, FAILED, PASSED, run_case
from ..spec.loader import Case
from ..spec.placeholders import PATTERNS

PREFIX = "fresh."
PER_TOOL = 3              # fresh cases per tool in a run (--wsconf-fresh)
PINNED = "1.71.0"         # the release the reference answers as: the fresh cases hold for it alone
# The property strategies' alphabets, without { and } (placeholder syntax).
ALPHABETS = ("abcxyz019_-. ", "ab \t\r\n", "😀中文한국어𝕏ab\n",
             "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 \n.,;:!?-_()[]'\"")
NAME_CHARS = "abcxyz019_"
JUDGED = (PASSED, FAILED, ERROR, "xfail", "xpass")


def _text(rng: random.Random, low: int = 0, high: int = 300) -> str:
    alphabet = rng.choice(ALPHABETS)
    text = "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))
    twist = rng.random()
    if twist < 0.15:
        text = "\ufeff" + text
    elif twist < 0.3:
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    return text


def _name(rng: random.Random, used: set[str] | None = None) -> str:
    while True:
        name = "".join(rng.choice(NAME_CHARS) for _ in range(rng.randint(1, 8))) + rng.choice((".txt", ".md", ".log", ""))
        if used is None or name not in used:
            if used is not None:
                used.add(name)
            return name


def _lines(rng: random.Random, count: int) -> list[str]:
    words = ["alpha", "beta", "gamma", "delta", "zeta", "eta", "theta", "kappa", "lambda", "mu"]
    return [" ".join(rng.choice(words) + str(rng.randint(0, 99)) for _ in range(rng.randint(1, 6)))
            for _ in range(count)]


def _step(tool: str, args: dict, after: dict | None = None) -> dict:
    return {"id": "s1", "tool": f"mastra_workspace_{tool}", "args": args, "expect": {"text": ""},
            **({"after": after} if after else {})}


def _read_file(rng):
    name, content = _name(rng), _text(rng)
    args = {"path": name}
    if rng.random() < 0.4:
        args.update(offset=rng.randint(1, 5), limit=rng.randint(1, 20))
    if rng.random() < 0.3:
        args["showLineNumbers"] = False
    return {"files": {name: content}}, _step("read_file", args), ["filesystem"]


def _write_file(rng):
    name = (f"{_name(rng)}/" if rng.random() < 0.3 else "") + _name(rng)
    content = _text(rng)
    return {}, _step("write_file", {"path": name, "content": content}, {"files": {name: content}}), ["filesystem"]


def _edit_file(rng):
    name, lines = _name(rng), _lines(rng, rng.randint(1, 12))
    marker = f"marker{rng.randint(10**6, 10**7)}"
    lines.insert(rng.randint(0, len(lines)), marker)
    before = "\n".join(lines) + ("\n" if rng.random() < 0.7 else "")
    new = _text(rng, 0, 40).replace("\ufeff", "")
    args = {"path": name, "old_string": marker, "new_string": new}
    return ({"files": {name: before}}, _step("edit_file", args, {"files": {name: before.replace(marker, new, 1)}}),
            ["filesystem"])


def _list_files(rng):
    used: set[str] = set()
    files = {}
    for _ in range(rng.randint(1, 8)):
        folder = rng.choice(["", f"{_name(rng, used)}/", f"{_name(rng, used)}/{_name(rng, used)}/"])
        files[folder + _name(rng, used)] = _text(rng, 0, 20)
    args = {"path": "."}
    if rng.random() < 0.4:
        args["maxDepth"] = rng.randint(1, 3)
    return {"files": files}, _step("list_files", args), ["filesystem"]


def _grep(rng):
    used: set[str] = set()
    files = {_name(rng, used): "\n".join(_lines(rng, rng.randint(1, 10))) + "\n" for _ in range(rng.randint(1, 4))}
    some = rng.choice(list(files.values())).split()
    pattern = rng.choice(some) if some else "alpha"
    return {"files": files}, _step("grep", {"pattern": pattern}), ["filesystem"]


def _file_stat(rng):
    name = _name(rng)
    return {"files": {name: _text(rng)}}, _step("file_stat", {"path": name}), ["filesystem"]


def _mkdir(rng):
    path = "/".join(_name(rng) for _ in range(rng.randint(1, 3)))
    return {}, _step("mkdir", {"path": path}, {"dirs": [path]}), ["filesystem", "empty_dirs"]


def _delete(rng):
    name = _name(rng)
    return {"files": {name: _text(rng)}}, _step("delete", {"path": name}, {"absent": [name]}), ["filesystem"]


GENERATORS = {"read_file": _read_file, "write_file": _write_file, "edit_file": _edit_file,
              "list_files": _list_files, "grep": _grep, "file_stat": _file_stat, "mkdir": _mkdir,
              "delete": _delete}


def case_id(tool: str, n: int) -> str:
    return f"{PREFIX}{tool}.{n}"


def draft(tool: str, n: int, seed: int, claims: list[str]) -> Case:
    """The n-th fresh case of a tool for this seed, its expectations still empty."""
    rng = random.Random(f"{seed}:{tool}:{n}")
    setup, step, needs = GENERATORS[tool](rng)
    return Case(id=case_id(tool, n), tool=tool, title=f"a fresh {tool} input (seed {seed})", claims=claims,
                file=f"<fresh, seed {seed}>", line=0, tags=["fresh"], needs=needs, versions=PINNED,
                setup=setup, steps=[step])


_ISO = re.compile(PATTERNS["iso_time"])


def _named(value, values: dict[str, str]):
    """An answer of the reference with what varies by run written as placeholders."""
    if isinstance(value, str):
        for name in ("root", "outside", "home"):
            value = value.replace(values[name], "{{" + name + "}}")
        return _ISO.sub("{{iso_time}}", value)
    if isinstance(value, list):
        return [_named(v, values) for v in value]
    if isinstance(value, dict):
        return {k: _named(v, values) for k, v in value.items()}
    return value


class _Noting:
    """The reference, noting the folders each case gives it (to name them in its answers)."""

    def __init__(self, inner: ReferenceAdapter):
        self.inner, self.seen = inner, {}

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def open(self, root, outside, home, workspace):
        self.seen.update(root=root, outside=outside, home=home)
        return self.inner.open(root, outside, home, workspace)


def expected_by_reference(case: Case, reference: ReferenceAdapter) -> Case:
    """The case with each step's `expect` as the reference answers it."""
    noting = _Noting(reference)
    result = run_case(case, noting, all_versions=True)
    answers = {s["id"]: s.get("actual") for s in result.steps}
    steps = []
    for step in case.steps:
        actual = answers.get(step["id"])
        if not isinstance(actual, dict):
            raise RuntimeError(f"the reference gave no answer to fresh case {case.id}: {result.message}")
        steps.append({**step, "expect": _expect(_named(actual, noting.seen))})
    return replace(case, steps=steps)


def _expect(actual: dict) -> dict:
    kind = actual.get("kind")
    if kind == "text":
        return {"text": actual["value"]}
    if kind == "error":
        return {"error": actual["message"], **({"error_code": actual["code"]} if actual.get("code") else {}),
                **({"error_name": actual["name"]} if actual.get("name") else {})}
    return {"value": actual.get("value")}


def rates(records: list[dict], tool: str, fresh: bool) -> tuple[int, int]:
    """(passed, judged) among the fixed or the fresh cases counting under a tool."""
    mine = [r for r in records if bool(r.get("fresh")) == fresh and tool in (r.get("tools") or [r.get("tool")])]
    judged = [r for r in mine if r["outcome"] in JUDGED]
    return sum(r["outcome"] == PASSED for r in judged), len(judged)


def verdicts(records: list[dict], known: dict[str, str]) -> list[tuple[str, str, bool]]:
    """(tool, its line for the summary, fails the run?) for each tool with fresh cases."""
    out = []
    for tool in sorted({r["tool"] for r in records if r.get("fresh")}):
        passed, judged = rates(records, tool, fresh=True)
        if not judged:
            continue  # unsupported or not applicable, as the fixed cases say
        fixed_passed, fixed_judged = rates(records, tool, fresh=False)
        fixed = fixed_passed / fixed_judged if fixed_judged else None
        line = (f"{tool:<22} fresh inputs: passed {passed} of {judged}" +
                (f"; fixed cases: {fixed:.0%} of {fixed_judged}" if fixed is not None else "; no fixed case judged"))
        behind = fixed is not None and passed / judged < fixed / 2
        if behind and tool in known:
            line += f" (expected to differ: {known[tool]})"
        elif behind:
            line += ": answers match the spec but not fresh inputs"
        out.append((tool, line, behind and tool not in known))
    return out
