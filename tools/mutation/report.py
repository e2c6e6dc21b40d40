"""MUTATION.md (the summary) and SURVIVORS.md (every survivor) from the saved results and the verdicts."""
from __future__ import annotations

import json
import os
from pathlib import Path

import yaml

from . import engine

KILLED = ("killed", "timeout")
# The kinds of module a score is given for, so a new module's score cannot hide in the total.
KINDS = ("tools", "filesystem", "sandbox", "workspace", "skills", "search", "lsp", "core", "other")
# Verdicts on a survivor: equivalent (no case can tell), platform (the code runs only on another OS,
# without bwrap or outside a sandbox: no case here can reach it), gap (a behaviour no case pins).
APART = ("equivalent", "platform")


def module_kind(module: str) -> str:
    """wsref/<kind>/... -> kind; wsref/workspace.py -> workspace; anything else -> other."""
    parts = module.split("/")
    if len(parts) > 2 and parts[1] in KINDS:
        return parts[1]
    return "workspace" if module == "wsref/workspace.py" else "other"


def results_path(results_dir: Path, module: str) -> Path:
    return results_dir / "results" / (module.replace("/", "__") + ".json")


def load_verdicts(path: Path) -> dict:
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text()) or {}
    return data.get("verdicts") or {}


def _current_case_hashes(spec_root: Path, _memo: dict = {}) -> dict:
    key = str(Path(spec_root).resolve())
    if key not in _memo:
        from wsconf.spec import load_spec
        _memo[key] = engine.case_hashes(load_spec(spec_root).cases)
    return _memo[key]


def module_state(results_dir: Path, module: str, spec_key: str, spec_root: Path | None = None) -> tuple[str, dict | None]:
    path = results_path(results_dir, module)
    if not path.exists():
        return "not measured", None
    data = json.loads(path.read_text())
    source = engine.REFERENCE / module
    if not source.exists() or data["source_sha"] != engine.sha_of_files([source]):
        return "stale: the module changed since it was measured", data
    if data.get("case_hashes") is not None and spec_root is not None:
        if data["case_hashes"] != _current_case_hashes(spec_root):
            return "stale: the cases changed since it was measured", data
    elif data["spec_key"] != spec_key:
        return "stale: the cases changed since it was measured", data
    if data.get("lines"):
        return "partial: only lines " + ",".join(map(str, data["lines"])), data
    if any(m["status"] == "not_run" for m in data["mutants"]):
        return "partial: the budget ran out", data
    return "measured", data


def counts(mutants: list[dict], verdicts: dict) -> dict:
    c = {"total": len(mutants), "killed": 0, "timeout": 0, "survived": 0, "equivalent": 0, "platform": 0,
         "error": 0, "not_run": 0}
    for m in mutants:
        s = m["status"]
        if s in ("survived", "uncovered"):
            verdict = (_verdict(m, verdicts) or {}).get("verdict")
            c[verdict if verdict in APART else "survived"] += 1
        else:
            c[s] += 1
    return _scored(c)


def _verdict(m: dict, verdicts: dict) -> dict | None:
    """A mutant's verdict: verdicts.yaml's by its id, else the one a recorded run kept with it."""
    return verdicts.get(m["id"]) or m.get("verdict")


# -- the record: what each module's last run measured, committed beside the tool, so the report can be
# written again where .mutation/ is not (a fresh clone) while a module's source is unchanged

def _record_entry(data: dict, run: str) -> dict:
    statuses: dict[str, int] = {}
    for m in data["mutants"]:
        if m["status"] not in ("survived", "uncovered"):
            statuses[m["status"]] = statuses.get(m["status"], 0) + 1
    return {"source_sha": data["source_sha"], "run": run, "statuses": statuses,
            "survivors": [{k: m.get(k) for k in ("id", "line", "scope", "description", "status")}
                          for m in data["mutants"] if m["status"] in ("survived", "uncovered")]}


def _from_record(entry: dict) -> dict:
    """The record's entry as results data: a row per mutant (the killed ones without details)."""
    rows = [{"id": None, "status": status} for status, n in entry["statuses"].items() for _ in range(n)]
    return {"source_sha": entry["source_sha"], "mutants": rows + entry["survivors"], "recorded": entry["run"]}


def load_record(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def _scored(c: dict) -> dict:
    judged = c["killed"] + c["timeout"] + c["survived"]
    c["score"] = (c["killed"] + c["timeout"]) / judged if judged else None
    return c


def _sum(rows: list[dict]) -> dict | None:
    if not rows:
        return None
    return _scored({k: sum(r[k] for r in rows) for k in rows[0] if k != "score"})


COLUMNS = "mutants | killed | timeout | survived | equivalent | other platform | not applied | score"


def _cells(c: dict, bold: bool = False) -> str:
    score = fmt(c["score"])
    return (f"{c['total']} | {c['killed']} | {c['timeout']} | {c['survived']} | {c['equivalent']} | "
            f"{c['platform']} | {c['error']} | " + (f"**{score}**" if bold else score))


def write(report: Path, survivors_report: Path, results_dir: Path, modules: list[str], spec_root: Path,
          verdicts_path: Path, command: str, record_path: Path | None = None, run: str = "") -> dict:
    """record_path: the committed record of each module's last measured run. A module measured here
    replaces its entry; one with no current results here is taken from the record while its source
    is unchanged (marked recorded: its cases may have grown since, so its score can only be higher)."""
    verdicts = load_verdicts(verdicts_path)
    key = engine.spec_key(spec_root)
    record = load_record(record_path) if record_path else {}
    rows, survivors, closed, unmeasured, contradicted, recorded = [], [], [], [], [], set()
    for module in modules:
        state, data = module_state(results_dir, module, key, spec_root)
        if state == "measured":
            record[module] = _record_entry(data, run)
        else:
            entry = record.get(module)
            source = engine.REFERENCE / module
            if entry is None or not source.exists() or entry["source_sha"] != engine.sha_of_files([source]):
                unmeasured.append((module, state, data))
                continue
            data = _from_record(entry)
            recorded.add(module)
        rows.append((module, counts(data["mutants"], verdicts)))
        for m in data["mutants"]:
            v = _verdict(m, verdicts)
            if m["status"] in ("survived", "uncovered"):
                survivors.append((module, m, v))
            elif v and v.get("verdict") == "gap" and m["status"] in KILLED:
                closed.append((module, m, v))
            elif v and v.get("verdict") in APART and m["status"] in KILLED:
                contradicted.append((module, m, v))
    totals = _sum([c for _, c in rows])
    open_gaps = [(module, m, v) for module, m, v in survivors if not v or v.get("verdict") not in APART]
    survivors_name = _relative(survivors_report, report)
    lines = ["# Mutation testing of the reference (wsref)", "",
             f"Generated by `tools/mutation`; do not edit by hand. Every survivor with its verdict is in "
             f"[{survivors_name}]({survivors_name}), written by the same command. Rerun (every target module; one worker; "
             "a rerun of an unchanged module keeps each kill while the case that made it is unchanged and each survivor no "
             "new or changed case covers, `--fresh` runs everything again):", "", "```", command,
             command + " --module wsref/tools/read_file.py --budget-seconds 600   # one module, with a deadline",
             command + " --report-only   # this file and the survivors again from .mutation/results/", "```", "",
             "The targets are every module of `reference/wsref/` but the runtime and npm ports of `js/` (checked against "
             "the originals instead) and the wire protocol of `server/`, and `js/tokenx.py`; a new module is a target "
             "without being listed. Each mutant is one change to one module (see `tools/mutation/operators.py`), applied "
             "in memory, and run against only the YAML cases of `spec/` that cover its statement (line coverage per case, "
             "cached by the files' hashes), each mutant with a deadline, in the time zone America/St_Johns (UTC-3:30, so "
             "that a time read from the local clock instead of UTC fails wherever the run happens). Only the YAML cases count, not the project's unit "
             "tests. A mutant is killed when one of those cases fails or errors, or when it hangs past its deadline "
             "(timeout). Survivors are judged in `tools/mutation/verdicts.yaml`: equivalent (no case can tell), other "
             "platform (the code runs only on another OS, without bwrap, or outside the mutation run's own sandbox), or "
             "a gap (a behaviour the spec does not pin).", "",
             "Score = (killed + timeout) / (killed + timeout + survived): equivalent and other-platform mutants are "
             "counted apart. A mutant's deadline is 10 s plus three times the baseline durations of its cases; on a "
             "heavily loaded machine a timeout can be a slow run rather than a hang.", ""]
    if totals:
        lines += [f"**Measured modules: {len(rows)} of {len(modules)}; score {fmt(totals['score'])}** "
                  f"({totals['killed'] + totals['timeout']} killed of {totals['killed'] + totals['timeout'] + totals['survived']}"
                  f" non-equivalent mutants; {totals['equivalent']} equivalent, {totals['platform']} on another platform; "
                  f"{len(open_gaps)} open gaps).", ""]
    else:
        lines += [f"**Measured modules: 0 of {len(modules)}.**", ""]
    lines += ["## By module kind", "",
              "A kind is scored only over its measured modules; the modules not measured are counted beside it.", "",
              f"| kind | modules measured | not measured | {COLUMNS} |", "| --- | ---: | ---: |" + " ---: |" * 8]
    for kind in KINDS:
        measured = [c for module, c in rows if module_kind(module) == kind]
        missing = sum(1 for module, _, _ in unmeasured if module_kind(module) == kind)
        if not measured and not missing:
            continue
        c = _sum(measured)
        cells = _cells(c) if c else " | ".join(["0"] * 7 + ["n/a"])
        lines.append(f"| {kind} | {len(measured)} | {missing} | {cells} |")
    if totals:
        lines.append(f"| **all** | {len(rows)} | {len(unmeasured)} | {_cells(totals, bold=True)} |")
    lines += ["", "## By module", "", f"| module | kind | {COLUMNS} |", "| --- | --- |" + " ---: |" * 8]
    for module, c in rows:
        mark = " (recorded)" if module in recorded else ""
        lines.append(f"| `{module}`{mark} | {module_kind(module)} | {_cells(c)} |")
    if recorded:
        lines += ["", f"(recorded): {len(recorded)} modules whose results are not in this checkout's `.mutation/`, "
                  "taken from `tools/mutation/recorded.json` (what each module's last run measured, kept while its "
                  "source is unchanged; cases added since can only kill more)."]
    lines += ["", "## Not measured", ""]
    if unmeasured:
        lines += ["These target modules are not counted above (no current results for the sources and cases "
                  "as they are now):", ""]
        for module, state, data in unmeasured:
            extra = ""
            if data is not None and (state.startswith("partial") or state.startswith("stale")):
                c = counts(data["mutants"], verdicts)
                extra = (f" (of {c['total']} mutants {c['not_run']} not run; so far {c['killed'] + c['timeout']} killed, "
                         f"{c['survived']} survived, {c['equivalent']} equivalent"
                         + (f"; score {fmt(c['score'])} then" if state.startswith("stale") else "") + ")")
            lines.append(f"- `{module}` ({module_kind(module)}): {state}{extra}")
    else:
        lines.append("Every target module is measured.")
    lines += ["", "## Open gaps", ""]
    if open_gaps:
        lines += ["Survivors that are not judged equivalent or other-platform: a behaviour no case pins yet, or a "
                  "survivor nobody has judged.", "", "| module | line | scope | mutant | verdict |",
                  "| --- | ---: | --- | --- | --- |"]
        lines += [_survivor_row(module, m, v) for module, m, v in open_gaps]
    else:
        lines.append("None: every survivor is judged equivalent or other-platform.")
    report.write_text("\n".join(lines) + "\n")
    if record_path:
        kept = {m: record[m] for m in sorted(record) if m in modules or (engine.REFERENCE / m).exists()}
        record_path.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
    _write_survivors(survivors_report, _relative(report, survivors_report), survivors, closed, contradicted)
    return {"totals": totals, "rows": rows, "survivors": survivors, "unmeasured": unmeasured, "open": open_gaps}


def _write_survivors(path: Path, summary_name: str, survivors, closed, contradicted) -> None:
    lines = ["# Mutation survivors of the reference (wsref)", "",
             f"Generated by `tools/mutation` with [the summary]({summary_name}); do not edit by hand. Every mutant that "
             "survived the YAML cases, with its verdict from `tools/mutation/verdicts.yaml`.", "", "## Survivors", ""]
    if not survivors:
        lines.append("None.")
    else:
        lines += ["| module | line | scope | mutant | verdict |", "| --- | ---: | --- | --- | --- |"]
        lines += [_survivor_row(module, m, v) for module, m, v in survivors]
    lines += ["", "## Gaps closed by new cases", ""]
    if not closed:
        lines.append("None recorded.")
    else:
        lines += ["Survivors of an earlier run that a new case now kills.", "",
                  "| module | line | mutant | closed by | killed now by |", "| --- | ---: | --- | --- | --- |"]
        for module, m, v in closed:
            lines.append(f"| `{module}` | {m['line']} | {_cell(m['description'])} | `{v.get('case', '?')}` | "
                         f"`{m.get('by', m['status'])}` |")
    if contradicted:
        lines += ["", "## Verdicts a kill contradicts", "",
                  "Judged equivalent or other-platform, yet a case kills them now: the verdict is wrong and must go.", ""]
        lines += [f"- `{module}` line {m['line']}: {m['description']} (killed by `{m.get('by')}`)"
                  for module, m, v in contradicted]
    path.write_text("\n".join(lines) + "\n")


def _survivor_row(module: str, m: dict, v: dict | None) -> str:
    """v: the verdict, from verdicts.yaml or the record."""
    if v is None:
        verdict = "**not judged yet**"
    elif v.get("verdict") == "equivalent":
        verdict = "equivalent: " + v["reason"]
    elif v.get("verdict") == "platform":
        verdict = "other platform: " + v["reason"]
    else:
        verdict = "**gap, open**: " + v["reason"]
    how = " (no case runs this line)" if m["status"] == "uncovered" else ""
    return f"| `{module}` | {m['line']} | `{m['scope']}` | {_cell(m['description'])}{how} | {_cell(verdict)} |"


def _relative(target: Path, beside: Path) -> str:
    """target's path as a link from a file beside `beside`."""
    return os.path.relpath(Path(target).resolve(), Path(beside).resolve().parent)


def fmt(score) -> str:
    return "n/a" if score is None else f"{score:.3f}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
