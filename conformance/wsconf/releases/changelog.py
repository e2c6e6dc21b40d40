"""`wsconf changelog`: BEHAVIOUR-CHANGES.md, the behaviour changes across @mastra/core releases, for
a person to read.

Between each release and the one run before it, a case changed when its outcome or its comparable
outputs changed (results/digest.state: in the words of its expectation, with every part the case
names as variable and the clock's masked, so times, pids, ids and epoch milliseconds never count).
Each change is described by the first thing that differs, read as a person would: the line of
text that changed, the field of a value with its old and new value, the error that appeared. The
changes of a release with the same tool, outcome and description (numbers generalised) are one
behaviour change: one line naming the tool and the claim, with its cases as links to the report
site, where the whole old and new outputs are (release pages). The file is a function of the
results alone (sorted, no times), so the same results write the same bytes.
"""
from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..results.digest import Digest, state
from ..spec.loader import Spec
from ..spec.tool_names import family_of
from ..spec.versions import key

SHOWN_CHARS = 60     # of each side of a change
CONTEXT = 18         # characters kept before the first difference within a line
DEFAULT_SITE = "report/site/"  # where `make report` and `make matrix` build the site, from the repository's root


@dataclass
class Change:
    """One behaviour change of a release: its cases share the tool, the outcomes and the description."""
    release: str
    previous: str
    tool: str
    was: str
    now: str
    what: str                      # the first case's description
    cases: list[str] = field(default_factory=list)
    claims: Counter = field(default_factory=Counter)
    old: list = field(default_factory=list)   # the first case's comparable outputs before and after
    new: list = field(default_factory=list)

    @property
    def claim(self) -> str | None:
        """The claim most of its cases check first."""
        return self.claims.most_common(1)[0][0] if self.claims else None

    @property
    def verdict(self) -> str:
        return VERDICTS.get((self.was, self.now), f"{self.was.replace('_', ' ')}, now {self.now.replace('_', ' ')}")


VERDICTS = {("matches", "failed"): "no longer as pinned",
            ("failed", "matches"): "now as pinned",
            ("error", "matches"): "now as pinned (was an adapter fault)",
            ("matches", "error"): "now an adapter fault",
            ("unsupported", "matches"): "new: now as pinned (was unsupported)",
            ("matches", "unsupported"): "now unsupported",
            ("failed", "failed"): "still not as pinned",
            ("error", "error"): "still an adapter fault"}


# -- describing one change ---------------------------------------------------------------------------

# Control characters (a colour's ESC, NUL, DEL) are unseen or garbled in Markdown: shown as their escapes
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _cut(text: str, limit: int = SHOWN_CHARS) -> str:
    text = text.replace("`", "'").replace("\n", "⏎")  # one line, whatever the value
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _scalar(value) -> str:
    return _cut(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True))


def _shown_line(line: str) -> str:
    return line.replace("\t", "⇥").replace("\r", "␍")


def _line_change(a: str, b: str) -> tuple[str, str]:
    """Two lines as they differ: whole when short, else from a word before the first difference to
    a word after the last."""
    if max(len(a), len(b)) <= SHOWN_CHARS:
        return a, b
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    begin = max(0, start - CONTEXT)
    space = a.rfind(" ", max(0, begin - CONTEXT), begin + 1)
    begin = space + 1 if space >= 0 else begin  # from a whole word, when one starts near
    after = min(end, 12)

    def window(text: str) -> str:
        stop = len(text) - end + after
        return ("…" if begin else "") + text[begin:stop] + ("…" if stop < len(text) else "")
    return window(a), window(b)


def _text_change(a: str, b: str) -> str:
    la, lb = a.split("\n"), b.split("\n")
    i = next((n for n in range(min(len(la), len(lb))) if la[n] != lb[n]), min(len(la), len(lb)))
    if i >= len(la):
        return f"a line appeared: {_quoted(lb[i])}" if i < len(lb) else "the text changed"
    if i >= len(lb):
        return f"a line went away: {_quoted(la[i])}"
    old, new = _line_change(_shown_line(la[i]), _shown_line(lb[i]))
    return f"{_quoted(old)} became {_quoted(new)}"


def _quoted(line: str) -> str:
    return f"`{_cut(_shown_line(line))}`" if line else "an empty line"


def _flat(value, path: str = "") -> dict[str, object]:
    """A value as {path: scalar}, in order: `value.size.characters`, `value.items[0].name`."""
    if isinstance(value, dict) and value:
        out = {}
        for k, v in value.items():
            out.update(_flat(v, f"{path}.{k}" if path else str(k)))
        return out
    if isinstance(value, list) and value:
        out = {}
        for i, v in enumerate(value):
            out.update(_flat(v, f"{path}[{i}]"))
        return out
    return {path: value}


def _value_change(a, b) -> str:
    fa, fb = _flat(a), _flat(b)
    for path in list(dict.fromkeys(list(fb) + list(fa))):
        if fa.get(path, _MISSING) == fb.get(path, _MISSING):
            continue
        if path not in fa:
            return f"`{path}` appeared: `{_scalar(fb[path])}`"
        if path not in fb:
            return f"`{path}` went away (was `{_scalar(fa[path])}`)"
        if isinstance(fa[path], str) and isinstance(fb[path], str):
            return f"`{path}`: " + _text_change(fa[path], fb[path])
        return f"`{path}`: `{_scalar(fa[path])}` became `{_scalar(fb[path])}`"
    return "the output changed"


_MISSING = object()
_KINDS = ("text", "error", "value", "media")


def _kind(output) -> str | None:
    return next((k for k in _KINDS if isinstance(output, dict) and k in output), None)


def _first_line(output, kind: str) -> str:
    value = output[kind]
    return _cut((value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)).split("\n")[0])


def describe(old: list, new: list) -> tuple[str | None, str]:
    """The first difference between two runs' comparable outputs, as a person reads it, and its step."""
    for i in range(max(len(old), len(new))):
        a = old[i]["actual"] if i < len(old) else _MISSING
        b = new[i]["actual"] if i < len(new) else _MISSING
        if a == b:
            continue
        step = (new[i] if i < len(new) else old[i])["step"]
        if a is _MISSING or b is _MISSING:
            return step, f"step `{step}` " + ("runs now" if a is _MISSING else "no longer runs")
        ka, kb = _kind(a), _kind(b)
        if ka and kb and ka != kb:
            if kb == "error":
                return step, f"now throws `{_first_line(b, kb)}` (was `{_first_line(a, ka)}`)"
            if ka == "error":
                return step, f"no longer throws `{_first_line(a, ka)}`: answers `{_first_line(b, kb)}`"
            return step, f"answers a {kb} instead of a {ka}"
        if ka == kb and ka in ("text", "error") and isinstance(a[ka], str) and isinstance(b[kb], str) and a[ka] != b[kb]:
            return step, ("the error: " if ka == "error" else "") + _text_change(a[ka], b[kb])
        return step, _value_change(a, b)
    return None, ""


def _tool(case, step_id: str | None) -> str:
    """The tool a change is in: the family of the step's tool (fs.<method>, workspace.<method> for
    those steps), else the case's."""
    step = next((s for s in case.steps if s.get("id") == step_id), None) if case else None
    if step and "tool" in step:
        return family_of(step["tool"])
    for kind in ("fs", "workspace"):
        if step and kind in step:
            return f"{kind}.{step[kind]}"
    return case.tool if case else "?"


def _general(text: str) -> str:
    """What the changes of one cause share: numbers and POSIX codes generalised."""
    return re.sub(r"\bE[A-Z]{2,}\b", "E…", re.sub(r"\d+", "#", text))


def _what(was: str, now: str, old: list, new: list, before: str, after: str) -> tuple[str | None, str]:
    if "unsupported" in (was, now):
        return None, ("the release exports what the case needs" if was == "unsupported" else "the case became unsupported")
    step, found = describe(old, new)
    if found:
        return step, found
    # the same answers, another outcome: what the root or the harness saw (the records' first lines)
    line = after if now != "matches" else before
    return None, f"the same answers; {'was' if now == 'matches' else 'now'}: {_cut(_general_paths(line), 100)}"


def _general_paths(text: str) -> str:
    return re.sub(r"/\S*wsconf-\S+", "…", text)


# -- the changes of every release ----------------------------------------------------------------------

def changes(releases: dict[str, Digest], spec: Spec) -> list[Change]:
    """The behaviour changes of each release from the one run before it, biggest first."""
    order = sorted(releases, key=key)
    cases = {c.id: c for c in spec.cases}
    families_of_claim: dict[str, Counter] = defaultdict(Counter)  # the tools each claim's cases call
    for case in spec.cases:
        for cid in case.claims:
            families_of_claim[cid].update(case.families)
    out: list[Change] = []
    for prev, cur in zip(order, order[1:]):
        a, b = releases[prev], releases[cur]
        found: dict[tuple, Change] = {}
        for case_id in sorted(set(a.entries) & set(b.entries)):
            ea, eb = a.entries[case_id], b.entries[case_id]
            if ea.fingerprint == eb.fingerprint:
                continue  # the same outcome and outputs (every pass is the pinned behaviour)
            ra, rb = a.record(case_id), b.record(case_id)
            (was, old), (now, new) = state(ra), state(rb)
            if was == now and old == new:
                continue
            step, what = _what(was, now, old, new, ea.message, eb.message)
            case = cases.get(case_id)
            tool = _tool(case, step)
            group = found.setdefault((tool, was, now, _general(what)),
                                     Change(cur, prev, tool, was, now, what, old=old, new=new))
            group.cases.append(case_id)
            if case and case.claims:  # of the case's claims, the one most about this tool
                family = tool.split(".")[0].replace("fs", "filesystem")
                group.claims[max(case.claims, key=lambda cid: families_of_claim[cid][family])] += 1
        out += sorted(found.values(), key=lambda c: (c.tool, -len(c.cases), c.what))
    return out


# -- BEHAVIOUR-CHANGES.md ------------------------------------------------------------------------------

LIMIT = 100_000  # bytes of BEHAVIOUR-CHANGES.md: a person's reading; the site has the rest
CAPS = (40, 25, 15, 10, 7, 5, 3, 2, 1)  # lines per release, the first whose file fits LIMIT


def _anchor(version: str) -> str:
    return version.replace(".", "")


@dataclass
class Line:
    """A release's changes of one tool and claim with one verdict: one line of BEHAVIOUR-CHANGES.md,
    told by the change of the most cases; the site's release page shows each change (anchor)."""
    changes: list[Change]
    anchor: str = ""

    @property
    def cases(self) -> list[str]:
        return [c for change in self.changes for c in change.cases]

    @property
    def first(self) -> Change:
        return self.changes[0]

    def text(self, site: str) -> str:
        first, others, n = self.first, len(self.changes) - 1, len(self.cases)
        claim = f" `{first.claim}`" if first.claim else ""
        also = f" (and {others} other difference{'s' * (others > 1)})" if others else ""
        return (f"- **{first.tool}**{claim}: {first.what}{also}; {first.verdict}. "
                f"[{n} case{'s' * (n > 1)}]({site}release/{first.release}.html#{self.anchor})")


def lines_by_release(found: list[Change]) -> dict[str, list[Line]]:
    """Each release's changes as lines, newest release first: one line per tool, claim and verdict,
    the most cases first."""
    by_release: dict[str, dict[tuple, list[Change]]] = defaultdict(lambda: defaultdict(list))
    for change in found:
        by_release[change.release][(change.tool, change.claim or "", change.verdict)].append(change)
    out = {}
    for release in sorted(by_release, key=key, reverse=True):
        lines = [Line(sorted(group, key=lambda c: (-len(c.cases), c.what))) for group in by_release[release].values()]
        lines.sort(key=lambda line: (-len(line.cases), line.first.tool, line.first.what))
        for n, line in enumerate(lines, 1):
            line.anchor = f"change-{n}"
        out[release] = lines
    return out


def render(releases: dict[str, Digest], spec: Spec, not_run: list[str], site: str = DEFAULT_SITE,
           found: list[Change] | None = None) -> str:
    """BEHAVIOUR-CHANGES.md: every release's lines, as many per release (the most cases first) as
    keep the file under LIMIT; the rest are counted and on the site."""
    found = changes(releases, spec) if found is None else found
    per_release = lines_by_release(found)
    for cap in CAPS:
        text = _document(sorted(releases, key=key), per_release, not_run, site, cap)
        if len(text.encode("utf-8")) <= LIMIT:
            break
    return text


def _document(order: list[str], per_release: dict[str, list[Line]], not_run: list[str], site: str, cap: int) -> str:
    lines = ["# Behaviour changes of the Mastra workspace tools across @mastra/core releases", "",
             "Generated by `wsconf changelog` from the release matrix (`make matrix`): every case of the suite",
             "run against each release. Do not edit: regenerate it. Each line is a behaviour change at the",
             "first release that shows it: the tool, the claim its cases check, what changed (the first",
             "difference, old and new, of the most cases), and whether the release now behaves as pinned (as",
             f"@mastra/core {order[-1] if order else '?'}, which the cases pin). Times, pids, ids and epoch",
             "milliseconds are never counted as changes. The cases are on the report site",
             f"(`{site}`: `make report` or `make site` builds it), whose release pages show every difference",
             f"with its cases and the whole old and new outputs; a release shows its {cap} biggest changes here.", ""]
    if order:
        lines.append(f"Releases run ({len(order)}): {order[0]} to {order[-1]}.")
    if not_run:
        lines.append(f"Releases not run ({len(not_run)}): {', '.join(not_run)}; a change listed at a release may "
                     "have come in one of the releases not run just before it.")
    lines.append("")
    if per_release:
        lines += ["| release | from | behaviour changes | cases |", "| --- | --- | ---: | ---: |"]
        lines += [f"| [{r}](#{_anchor(r)}) | {found[0].first.previous} | {len(found)} | "
                  f"{sum(len(line.cases) for line in found)} |" for r, found in per_release.items()]
        lines.append("")
    else:
        lines += ["No behaviour changed between the releases run.", ""]
    for release, found in per_release.items():
        lines += [f"## {release}", "", f"From {found[0].first.previous} ([on the site]({site}release/{release}.html)):", ""]
        lines += [line.text(site) for line in found[:cap]]
        if len(found) > cap:
            rest = found[cap:]
            lines.append(f"- and [{len(rest)} more]({site}release/{release}.html) in "
                         f"{sum(len(line.cases) for line in rest)} cases, each of fewer cases")
        lines.append("")
    text = "\n".join(lines).rstrip("\n") + "\n"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")  # a lone surrogate (half an emoji) as \\ud83d
