"""`wsconf changelog`: BEHAVIOUR-CHANGES.md from results across releases.

For each release whose documented behaviour changed from the release run before it: the cases
whose output changed, grouped by cause (the same words removed and added in the same kind of
output, e.g. `"type":"number"` -> `"type":"integer"` in every schema that has `tail`), each group
with its claims, its cases, and one case's old and new output. The file is a function of the
results alone (sorted, no times), so the same results write the same bytes.
"""
from __future__ import annotations

import difflib
import json
import re
from collections import defaultdict

from ..results.records import MATCHES, Results, outputs
from ..spec.loader import Spec
from ..spec.versions import key

MAX_SHOWN = 1600  # characters of one old/new output in an entry


def _state(record: dict | None) -> tuple[str, list]:
    if record is None:
        return "absent", []
    outcome = "matches" if record["outcome"] == MATCHES else record["outcome"]
    steps = outputs(record)
    if record["outcome"] == "error":  # an adapter fault: no output to compare but the fault's kind
        steps = steps + [{"step": "fault", "actual": re.sub(r"\d+(\.\d+)?", "#", record["message"].split("\n")[0])}]
    if record["outcome"] == "unsupported":
        steps = [{"step": "unsupported", "actual": record["message"]}]
    return outcome, steps


_TOKEN = re.compile(r"\w+|[^\w\s]")


def _general(text: str) -> str:
    """What stays the same across the cases one cause touches: numbers and POSIX codes generalised."""
    return re.sub(r"\bE[A-Z]{2,}\b", "E…", re.sub(r"\d+", "#", text))


def _signature(old: list, new: list) -> tuple:
    """What changed: the first run of tokens removed and added in the first step whose output differs,
    as it reads (the original text) and generalised (the grouping key)."""
    for a, b in zip(old + [None] * (len(new) - len(old)), new + [None] * (len(old) - len(new))):
        if a == b:
            continue
        sa = json.dumps(a["actual"] if a else None, ensure_ascii=False, sort_keys=True)
        sb = json.dumps(b["actual"] if b else None, ensure_ascii=False, sort_keys=True)
        ta, tb = list(_TOKEN.finditer(sa)), list(_TOKEN.finditer(sb))
        matcher = difflib.SequenceMatcher(None, [m.group() for m in ta], [m.group() for m in tb], autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                continue
            removed = sa[ta[i1].start():ta[i2 - 1].end()] if i2 > i1 else ""
            added = sb[tb[j1].start():tb[j2 - 1].end()] if j2 > j1 else ""
            return (_general(removed[:160]), _general(added[:160])), (removed[:160], added[:160])
    return ("", ""), ("", "")


def _describe(shown: tuple) -> str:
    removed, added = (x.replace("`", "'") for x in shown)
    if not removed and not added:
        return "the outcome changed"
    if not removed:
        return f"`{added}` appeared"
    if not added:
        return f"`{removed}` went away"
    return f"`{removed}` became `{added}`"


def _shown(steps: list) -> str:
    text = json.dumps([s["actual"] for s in steps], ensure_ascii=False, indent=1, sort_keys=True)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "\n… (cut)"


def changes(matrix: dict[str, Results]) -> list[dict]:
    """One item per (release, cause): {release, previous, signature, cases, became, old, new}."""
    releases = sorted(matrix, key=key)
    out = []
    for prev, cur in zip(releases, releases[1:]):
        groups: dict[tuple, list] = defaultdict(list)
        ids = sorted(set(matrix[prev].records) | set(matrix[cur].records))
        for case_id in ids:
            (was, old), (now, new) = _state(matrix[prev].records.get(case_id)), _state(matrix[cur].records.get(case_id))
            if "absent" in (was, now) or (was == now and old == new):
                continue
            if was == now == "matches":
                continue  # both as pinned: the parts that may vary (placeholders) varied
            general, shown = _signature(old, new)
            groups[(was, now) + general].append((case_id, old, new, shown))
        for signature, cases in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
            was, now = signature[0], signature[1]
            first = cases[0]
            out.append({"release": cur, "previous": prev, "was": was, "now": now,
                        "what": _describe(first[3]), "cases": [c[0] for c in cases],
                        "old": _shown(first[1]), "new": _shown(first[2]), "example": first[0]})
    return out


_VERDICT = {("matches", "failed"): "stopped matching the pinned behaviour",
            ("failed", "matches"): "now matches the pinned behaviour",
            ("error", "matches"): "now matches the pinned behaviour (was an adapter fault)",
            ("matches", "error"): "stopped matching the pinned behaviour (an adapter fault)",
            ("unsupported", "matches"): "now matches the pinned behaviour (was unsupported)",
            ("failed", "failed"): "changed, still not the pinned behaviour"}


def render(matrix: dict[str, Results], spec: Spec, not_run: list[str]) -> str:
    releases = sorted(matrix, key=key)
    claims_of = {c.id: c.claims for c in spec.cases}
    items = changes(matrix)
    lines = ["# Behaviour changes of the Mastra workspace tools across @mastra/core releases", "",
             "Generated by `wsconf changelog` from the release matrix (`make matrix`): every case of the",
             "suite run against each release with every case applied. Do not edit: regenerate it.",
             "A change is listed at the first release that shows it, grouped by cause (the same words",
             "removed and added in the same kind of output). \"Pinned\" is the behaviour of @mastra/core",
             f"{releases[-1] if releases else '?'} that the cases pin.", ""]
    if releases:
        lines.append(f"Releases run ({len(releases)}): {', '.join(releases)}.")
    if not_run:
        lines.append(f"Releases not run ({len(not_run)}): {', '.join(not_run)}; a change listed at a release may "
                     "have come in one of the releases not run just before it.")
    lines.append("")
    summary = defaultdict(lambda: [0, 0])
    for item in items:
        summary[item["release"]][0] += 1
        summary[item["release"]][1] += len(item["cases"])
    lines += ["| release | causes | cases changed |", "| --- | --- | --- |"]
    lines += [f"| [{r}](#{r.replace('.', '')}) | {summary[r][0]} | {summary[r][1]} |" for r in releases if r in summary]
    lines.append("")
    by_release = defaultdict(list)
    for item in items:
        by_release[item["release"]].append(item)
    for release in sorted(by_release, key=key, reverse=True):
        entries = by_release[release]
        lines += [f"## {release}", "", f"From {entries[0]['previous']} to {release}: "
                  f"{len(entries)} cause(s), {sum(len(e['cases']) for e in entries)} case(s).", ""]
        for n, item in enumerate(entries, 1):
            claims = sorted({c for case_id in item["cases"] for c in claims_of.get(case_id, [])})
            verdict = _VERDICT.get((item["was"], item["now"]), f"{item['was']} → {item['now']}")
            lines += [f"### {release}.{n}: {item['what']} ({len(item['cases'])} case{'s' if len(item['cases']) != 1 else ''}, {verdict})",
                      "", f"- claims: {', '.join(f'`{c}`' for c in claims) or '(none)'}",
                      f"- cases: {', '.join(f'`{c}`' for c in item['cases'])}", "",
                      f"Old output ({item['previous']}, `{item['example']}`):", "", "```json", item["old"], "```", "",
                      f"New output ({release}):", "", "```json", item["new"], "```", ""]
    text = "\n".join(lines).rstrip("\n") + "\n"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")  # a lone surrogate (half an emoji) as \\ud83d
