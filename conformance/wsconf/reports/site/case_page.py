"""A case's page (case/<id>.html, its permanent URL): the claims it checks with their quotes, what
`wsconf show` prints (setup tree, every call, the exact expected output, with the same glyphs and
their legend), each implementation's result (its actual output and the diff where it failed), and
its history across @mastra/core releases when the release matrix is there."""
from __future__ import annotations

from dataclasses import dataclass

from ...isolation.sizes import clip_text
from ...judge.render import describe, diff
from ...results.records import in_expect_terms
from ..case_text import GLYPHS, body_lines, legend
from .implementations import Implementation
from .layout import claim_url, esc, link, outcome_span, page, release_url, tool_url

BLOCK = 6000          # characters of one output or diff on a page (`wsconf show` and the results have it whole)
CASE_TEXT = 60_000    # characters of the case's own text
STEPS_SHOWN = 6       # differing steps shown in full per result
HISTORY_SHOWN = 4     # failing runs of releases whose answers are shown (the newest); the release pages have the rest
DEPTH = 1


def claims_html(case, spec) -> str:
    items = []
    for cid in case.claims:
        claim = spec.claims.get(cid)
        if claim is None:
            continue
        flag = (f' <span class="badge {esc(claim.status)}">{esc(claim.status)}</span> {esc(claim.observed or claim.reason or "")}'
                if claim.status else "")
        items.append(f'<li>{link(claim_url(cid), cid, DEPTH)} <span class="quote">“{esc(claim.quote)}”</span> '
                     f'<span class="tag">({esc(claim.page)}{", " + esc(claim.section) if claim.section else ""})</span>{flag}</li>')
    return "<ul>" + "".join(items) + "</ul>"


def _pre(text: str) -> str:
    return f"<pre>{esc(clip_text(text, BLOCK))}</pre>"


def _readable(expected, actual):
    """A text (or an error's message) compared as the text itself, not as JSON around it."""
    for kind in ("text", "error"):
        if (isinstance(expected, dict) and isinstance(actual, dict) and set(expected) == set(actual) == {kind}
                and isinstance(expected[kind], str) and isinstance(actual[kind], str)):
            return expected[kind], actual[kind]
    return expected, actual


def result_html(record: dict) -> list[str]:
    """What went wrong in one result: every difference the harness saw, and for a differing output
    the actual output and the diff against the expected one (in the expectation's own words)."""
    out = []
    steps = {s.get("id"): s for s in record.get("steps") or []}
    divergences = record.get("divergences") or []
    if not divergences:  # results written before divergences were recorded: the message says it
        return [_pre(record.get("message") or "(no message)")] if record.get("message") else []
    shown = 0
    for d in divergences:
        harm = f' <span class="badge">{esc(d["harm"].replace("_", " "))}</span>' if d.get("harm") else ""
        out.append(f"<p>{esc(str(d.get('text', '')).split(chr(10), 1)[0])}{harm}</p>")
        step = steps.get(d.get("step"))
        if d.get("kind") == "output" and step and shown < STEPS_SHOWN:
            shown += 1
            expected, actual = _readable(step.get("expected"), in_expect_terms(step.get("expected"), step.get("actual")))
            out.append(f"<details open><summary>actual output of <code>{esc(step.get('call', ''))}</code>"
                       f"</summary>{_pre(describe(actual))}</details>")
            out.append(f"<details open><summary>diff (expected → actual)</summary>{_pre(diff(expected, actual))}</details>")
    return out


def _implementation_section(case, impl: Implementation) -> str:
    outcome = impl.outcome(case)
    entry = impl.entry(case)
    cls = {"passed": "ok", "xfail": "x"}.get(outcome, "bad" if outcome in ("failed", "error", "xpass") else "")
    body = [f'<section class="impl {cls}" id="{esc(impl.slug)}"><h3>{link(impl.url, impl.label, DEPTH)} '
            f'<span class="tag">{esc(impl.subtitle)}</span>: {outcome_span(outcome, entry.harm if entry else None)}</h3>']
    reason = impl.expectations.get(case.id)
    if reason and outcome in ("xfail", "xpass"):
        body.append(f"<p>Listed in its expectations: <i>{esc(reason)}</i></p>")
    if outcome in ("failed", "error", "xfail", "xpass") and entry is not None:
        record = impl.digest.record(case.id) or {}
        body += result_html(record) if outcome != "xpass" else []
    elif outcome == "unsupported" and entry is not None:
        body.append(f"<p>{esc(entry.message)}</p>")
    elif outcome == "not_applicable":
        body.append(f"<p>Outside the case's releases ({esc(case.versions)}).</p>")
    elif outcome == "absent":
        body.append("<p>Not in its results (not selected in that run).</p>")
    return "\n".join(body + ["</section>"])


@dataclass
class _Run:
    """Consecutive releases that did the same with a case."""
    first: str
    last: str
    outcome: str
    entry: object
    release: Implementation  # the newest of them
    count: int = 1


def _runs(case, releases: dict) -> list[_Run]:
    runs: list[_Run] = []
    for version, release in releases.items():
        outcome, entry = release.outcome(case), release.entry(case)
        if runs and (runs[-1].outcome, getattr(runs[-1].entry, "fingerprint", None)) == \
                (outcome, getattr(entry, "fingerprint", None)):
            run = runs[-1]
            run.last, run.entry, run.release, run.count = version, entry, release, run.count + 1
        else:
            runs.append(_Run(version, version, outcome, entry, release))
    return runs


def _history(case, releases: dict) -> list[str]:
    """The case across releases, newest first, consecutive releases that did the same (outcome and
    comparable outputs) as one row; a failing row with what the newest of them answered."""
    out = ["<h2 id=history>Across @mastra/core releases</h2>",
           f"<p>Its releases: <b>{esc(case.versions or 'every release')}</b> (<code>versions</code>). "
           "Releases that did the same are one row.</p>",
           '<table class="history"><tr><th>releases</th><th>outcome</th><th>what it did</th></tr>']
    details = []
    runs = _runs(case, releases)
    for run in reversed(runs):
        span = link(release_url(run.first), run.first, DEPTH) + (
            f" – {link(release_url(run.last), run.last, DEPTH)} ({run.count})" if run.count > 1 else "")
        raw = run.entry.outcome if run.entry else "absent"
        said = esc(run.entry.message) if run.entry and run.entry.message else ""
        if run.outcome == "not_applicable" and raw != "passed":
            said = f"outside its releases; it answered otherwise ({esc(raw)}): " + said
        out.append(f"<tr><td>{span}</td><td>{outcome_span(run.outcome, getattr(run.entry, 'harm', None))}</td>"
                   f"<td>{said}</td></tr>")
        if raw in ("failed", "error") and len(details) < HISTORY_SHOWN:
            record = run.release.digest.record(case.id) or {}
            details.append(f"<details><summary>what {esc(run.last)} answered"
                           f"{f' (the same on {run.first} – {run.last})' if run.count > 1 else ''}</summary>"
                           + "\n".join(result_html(record)) + "</details>")
    out.append("</table>")
    hidden = sum(r.entry is not None and r.entry.outcome in ("failed", "error") for r in runs) - len(details)
    if hidden > 0:
        details.append(f"<p>{hidden} older failing row(s) not shown in full: <code>wsconf run --adapter "
                       f"mastra@VERSION -k {esc(case.id)}</code> gives any release's answer.</p>")
    return out + details


def render(case, spec, implementations: list[Implementation], releases: dict) -> str:
    tools = ", ".join(link(tool_url(f), f, DEPTH) for f in case.families)
    body = [f"<p>{esc(case.title)}</p>",
            f'<p class="tag"><code>{esc(case.file)}:{case.line}</code> · tools: {tools} · releases: '
            f"{esc(case.versions or 'every release')}" + (f" · tags: {esc(', '.join(case.tags))}" if case.tags else "")
            + f" · <code>wsconf show {esc(case.id)}</code></p>",
            "<h2>What it checks</h2>", claims_html(case, spec)]
    text = body_lines(case)
    body += ["<h2>The case</h2><p>The setup, every call and its exact expected result, as <code>wsconf show</code> prints "
             "it.</p>", _pre_case("\n".join(text).strip("\n"))]
    glyphs = legend(text)
    body.append(f'<p class="legend">{esc(glyphs[-1]) if glyphs else "No glyphs in this case."} '
                f'(every glyph: {esc("; ".join(f"{g} {m}" for g, m in GLYPHS))})</p>')
    if implementations:
        body += ["<h2 id=implementations>Implementations</h2>",
                 '<table><tr><th>implementation</th><th>outcome</th></tr>']
        for impl in implementations:
            entry = impl.entry(case)
            body.append(f'<tr><td><a href="#{esc(impl.slug)}">{esc(impl.label)}</a> <span class="tag">{esc(impl.subtitle)}</span></td>'
                        f"<td>{outcome_span(impl.outcome(case), entry.harm if entry else None)}</td></tr>")
        body.append("</table>")
        body += [_implementation_section(case, impl) for impl in implementations]
    if releases:
        body += _history(case, releases)
    return page(case.id, body, DEPTH)


def _pre_case(text: str) -> str:
    return f"<pre>{esc(clip_text(text, CASE_TEXT))}</pre>"
