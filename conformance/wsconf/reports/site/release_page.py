"""A release's page (release/<version>.html): how @mastra/core <version> does on the suite, and what
changed from the release run before it, one behaviour change a line as in BEHAVIOUR-CHANGES.md, each
with all its cases and the whole old and new output of the first (the long diffs the changelog
leaves out); and the list of releases (changes.html)."""
from __future__ import annotations

import difflib

from ...isolation.sizes import clip_text
from ...judge.render import describe
from .implementations import Implementation
from .layout import case_url, claim_url, esc, link, page, release_url, tool_url

DEPTH = 1
BLOCK = 8000


def _outputs_diff(change) -> str:
    old = describe([s["actual"] for s in change.old]).splitlines()
    new = describe([s["actual"] for s in change.new]).splitlines()
    return clip_text("\n".join(difflib.unified_diff(old, new, change.previous, change.release, lineterm="", n=3)), BLOCK)


def change_html(change, depth: int) -> str:
    claim = link(claim_url(change.claim), change.claim, depth) if change.claim else "no claim"
    cases = ", ".join(link(case_url(c), c, depth) for c in change.cases)
    return (f'<li><b>{link(tool_url(change.tool.split(".")[0].replace("fs", "filesystem")), change.tool, depth)}</b> '
            f"({claim}): {esc(change.what)}; <i>{esc(change.verdict)}</i>. "
            f"<details><summary>{len(change.cases)} case(s), and what the first answered on both</summary>"
            f"<p>{cases}</p><pre>{esc(_outputs_diff(change))}</pre></details></li>")


def _counts(release: Implementation, cases: list) -> str:
    outcomes = [release.outcome(c) for c in cases]
    applies = [o for o in outcomes if o not in ("not_applicable", "absent", "unsupported")]
    return (f"{applies.count('passed')} of the {len(applies)} cases that apply behave as pinned; "
            f"{outcomes.count('not_applicable')} not applicable, {outcomes.count('unsupported')} unsupported, "
            f"{outcomes.count('absent')} not run.")


def render(version: str, release: Implementation, previous: str | None, changes: list, cases: list) -> str:
    deps = ", ".join(f"{k} {v}" for k, v in sorted((release.run.get("dependencies") or {}).items()))
    body = [f'<p class="tag">{esc(deps)}</p>', f"<p>{esc(_counts(release, cases))}</p>"]
    if previous is None:
        body.append("<p>The oldest release run: nothing to compare it with.</p>")
    else:
        body.append(f"<h2>Behaviour changes from {link(release_url(previous), previous, DEPTH)} ({len(changes)})</h2>")
        body.append("<p>Each is one behaviour (the same tool, outcome and difference) and the first difference "
                    "as a person reads it; times, pids, ids and epoch milliseconds are never changes.</p>")
        body.append("<ul>" + "".join(change_html(c, DEPTH) for c in changes) + "</ul>" if changes
                    else "<p>None: every case did the same.</p>")
    return page(f"@mastra/core {version}", body, DEPTH)


def render_list(releases: dict[str, Implementation], changes_of: dict[str, list], not_run: list[str], cases: list) -> str:
    versions = list(releases)
    body = ["<p>Every stable @mastra/core release the release matrix ran, newest first, with its behaviour changes "
            "from the release before it (BEHAVIOUR-CHANGES.md has the same lines).</p>"]
    if not_run:
        body.append(f"<p>Releases not run: {esc(', '.join(not_run))}.</p>")
    body.append('<table><tr><th>release</th><th class="num">behaviour changes</th><th class="num">cases changed</th>'
                '<th>behaves as pinned</th></tr>')
    for version in reversed(versions):
        found = changes_of.get(version, [])
        outcomes = [releases[version].outcome(c) for c in cases]
        applies = [o for o in outcomes if o not in ("not_applicable", "absent", "unsupported")]
        body.append(f"<tr><td>{link(release_url(version), version, 0)}</td><td class=num>{len(found)}</td>"
                    f"<td class=num>{sum(len(c.cases) for c in found)}</td>"
                    f"<td>{applies.count('passed')} / {len(applies)}</td></tr>")
    body.append("</table>")
    return page("Behaviour changes across @mastra/core releases", body, 0)
