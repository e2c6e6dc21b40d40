"""A release's page (release/<version>.html): how @mastra/core <version> does on the suite, and what
changed from the release run before it, the behaviour changes of BEHAVIOUR-CHANGES.md (which links
to their anchors), each with every difference it stands for, its cases and the whole old and new
output of the first (the long diffs the changelog leaves out); and the list of releases
(changes.html)."""
from __future__ import annotations

import difflib

from ...isolation.sizes import clip_text
from ...judge.render import describe
from .implementations import Implementation
from .layout import case_url, claim_url, esc, link, page, release_url, tool_url, with_code

DEPTH = 1
BLOCK = 8000


def _steps_text(steps: list) -> list[str]:
    """A run's comparable outputs, step by step, a text shown as itself."""
    lines = []
    for step in steps:
        value = step["actual"]
        if isinstance(value, dict) and len(value) == 1 and isinstance(next(iter(value.values())), str):
            value = next(iter(value.values()))  # {"text": ...} or {"error": ...}: the text itself
        lines += [f"step {step['step']}:"] + describe(value).splitlines()
    return lines


def _outputs_diff(change) -> str:
    return clip_text("\n".join(difflib.unified_diff(_steps_text(change.old), _steps_text(change.new), change.previous,
                                                   change.release, lineterm="", n=3)), BLOCK)


def _change_html(change, depth: int) -> str:
    cases = ", ".join(link(case_url(c), c, depth) for c in change.cases)
    return (f"<li>{with_code(change.what)} <details><summary>{len(change.cases)} case(s), and what the first answered on "
            f"both</summary><p>{cases}</p><pre>{esc(_outputs_diff(change))}</pre></details></li>")


class ToolPages:
    """Which tool page a change's tool is on: its own family's, else its first case's (a step of a
    pseudo-tool such as `descriptions` or `view` has no page of its own)."""

    def __init__(self, cases: list):
        self.families = {f for case in cases for f in case.families}
        self.cases = {case.id: case for case in cases}

    def of(self, change) -> str | None:
        family = change.tool.split(".")[0].replace("fs", "filesystem")
        if family in self.families:
            return family
        first = self.cases.get(change.cases[0])
        return next((f for f in first.families if f in self.families), None) if first else None


def line_html(line, depth: int, pages: ToolPages) -> str:
    """One behaviour change of BEHAVIOUR-CHANGES.md (its anchor is what the file links to), with every
    difference it stands for, their cases and the first case's old and new outputs."""
    first = line.first
    family = pages.of(first)
    tool = link(tool_url(family), first.tool, depth) if family else esc(first.tool)
    claim = link(claim_url(first.claim), first.claim, depth) if first.claim else "no claim"
    return (f'<li id="{esc(line.anchor)}"><b>{tool}</b> ({claim}): <i>{esc(first.verdict)}</i>, '
            f"{len(line.cases)} case(s)<ul>" + "".join(_change_html(c, depth) for c in line.changes) + "</ul></li>")


def _counts(release: Implementation, cases: list) -> str:
    outcomes = [release.outcome(c) for c in cases]
    applies = [o for o in outcomes if o not in ("not_applicable", "absent", "unsupported")]
    return (f"{applies.count('passed')} of the {len(applies)} cases that apply behave as pinned; "
            f"{outcomes.count('not_applicable')} not applicable, {outcomes.count('unsupported')} unsupported, "
            f"{outcomes.count('absent')} not run.")


def render(version: str, release: Implementation, previous: str | None, lines: list, cases: list) -> str:
    deps = ", ".join(f"{k} {v}" for k, v in sorted((release.run.get("dependencies") or {}).items()))
    body = [f'<p class="tag">{esc(deps)}</p>', f"<p>{esc(_counts(release, cases))}</p>"]
    if previous is None:
        body.append("<p>The oldest release run: nothing to compare it with.</p>")
    else:
        body.append(f"<h2>Behaviour changes from {link(release_url(previous), previous, DEPTH)} ({len(lines)})</h2>")
        body.append("<p>As in BEHAVIOUR-CHANGES.md: per tool, claim and verdict, each difference (the first one of "
                    "its cases, as a person reads it) with its cases; times, pids, ids and epoch milliseconds are "
                    "never changes.</p>")
        pages = ToolPages(cases)
        body.append("<ol>" + "".join(line_html(line, DEPTH, pages) for line in lines) + "</ol>" if lines
                    else "<p>None: every case did the same.</p>")
    return page(f"@mastra/core {version}", body, DEPTH)


def render_list(releases: dict[str, Implementation], lines_of: dict[str, list], not_run: list[str], cases: list) -> str:
    versions = list(releases)
    body = ["<p>Every stable @mastra/core release the release matrix ran, newest first, with its behaviour changes "
            "from the release before it (BEHAVIOUR-CHANGES.md has the same lines).</p>"]
    if not_run:
        body.append(f"<p>Releases not run: {esc(', '.join(not_run))}.</p>")
    body.append('<table><tr><th>release</th><th class="num">behaviour changes</th><th class="num">cases changed</th>'
                '<th>behaves as pinned</th></tr>')
    for version in reversed(versions):
        found = lines_of.get(version, [])
        outcomes = [releases[version].outcome(c) for c in cases]
        applies = [o for o in outcomes if o not in ("not_applicable", "absent", "unsupported")]
        body.append(f"<tr><td>{link(release_url(version), version, 0)}</td><td class=num>{len(found)}</td>"
                    f"<td class=num>{sum(len(line.cases) for line in found)}</td>"
                    f"<td>{applies.count('passed')} / {len(applies)}</td></tr>")
    body.append("</table>")
    return page("Behaviour changes across @mastra/core releases", body, 0)
