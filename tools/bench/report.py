"""BENCHMARKS.md, written whole from one run's data (`python -m tools.bench --write BENCHMARKS.md`).

Every figure here comes from the run; the prose around them says what was measured and how to
read it, and each target's "what limits it" is worked out from the same numbers."""
from __future__ import annotations

import re
import statistics
from pathlib import Path

from .suite import lpt_makespan, shards

GREP = [("grep_literal", "literal"), ("grep_icase", "case-insensitive"), ("grep_context", "2 context lines"),
        ("grep_regex", "regex")]


def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def _ratio(samples, a, b):
    pairs = [x / y for x, y in zip(samples.get(a, []), samples.get(b, [])) if x is not None and y]
    return statistics.median(pairs) if pairs else None


def _s(x):
    if x is None:
        return "—"
    return f"{x:.1f} s" if x >= 10 else (f"{x:.2f} s" if x >= 1 else f"{x * 1000:.0f} ms")


SECTION = re.compile(r"<!-- ([a-z-]+):start -->.*?<!-- \1:end -->", re.S)


def _status(ok):
    return "—" if ok is None else ("**met**" if ok else "**missed**")


def write_document(path: Path, text: str) -> None:
    """BENCHMARKS.md written whole, keeping every section another tool wrote into it between its
    markers (<!-- NAME:start --> ... <!-- NAME:end -->: tools/bench/xfail.py, site.py, confinement.py,
    and the measurements written by hand)."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    kept = [m.group(0) for m in SECTION.finditer(old) if f"<!-- {m.group(1)}:start -->" not in text]
    path.write_text("\n\n".join([text.rstrip("\n"), *kept]) + "\n", encoding="utf-8")


def document(data: dict, workloads_table: str, command: str) -> str:
    mach, samples = data["machine"], data["samples"]
    suite = data.get("suite") or {}
    runs = suite.get("runs", {})
    out = ["# Benchmarks: wsref, @mastra/core 1.71.0, GNU grep, the suite and the tests", "",
           "Written whole by one command, from one run (nothing here is edited by hand; the sections at the end "
           "between `<!-- NAME:start -->` and `<!-- NAME:end -->` are written by the other tools of tools/bench, "
           "or by hand from their side-by-side runs, and kept when the rest is written again):", "",
           "```sh", "make setup", command, "```", "",
           "`tools/bench/README.md` says how each figure is measured. Every figure is a median over rounds; "
           "every ratio is the median over rounds of the ratio of two runs made next to each other in the "
           "same round, the order of the variants reversed every other round. The machine is shared and "
           "noisy, so ratios measured side by side are the figures to trust; absolute times move with the load.",
           "", "## Machine", "", "| | |", "|---|---|",
           f"| CPU | {mach['cpu']}, `nproc` = {mach['nproc']} |", f"| memory | {mach['mem']} |",
           f"| software | Python {mach['python']}, Node {mach['node']}, {mach['grep']}, Linux {mach['kernel']} |",
           f"| date | {mach['date']} |",
           f"| load average | {data.get('load_before', '?')} at the start, {data.get('load_after', '?')} at the end |", ""]

    # -- targets ---------------------------------------------------------------------------------
    rows = []
    floor_py = {name: _median(samples.get(name, {}).get("pyfloor", [])) for name, _ in GREP}
    gnu = {name: _median(samples.get(name, {}).get("floor", [])) for name, _ in GREP}
    ref = {name: _median(samples.get(name, {}).get("ref_in", [])) for name, _ in GREP}
    for name, title in GREP:
        s = samples.get(name)
        if not s:
            continue
        limit = 0.5 if name == "grep_regex" else 0.25
        r = _ratio(s, "ref_in", "up_in")
        over_floor = _ratio(s, "ref_in", "pyfloor")
        why = (f"Python's read floor on this tree (walk, lstat and read every file, no decoding, no regex) is "
               f"{_s(floor_py[name])}; wsref takes {_s(ref[name])}"
               + (f", {over_floor:.1f}x that floor" if over_floor else ""))
        if name == "grep_regex":
            why += ("; a pattern with no literal to look for (only `-`) is searched in every file: RE2's DFA answers "
                    "whether a file can match, Python's `re` finds the lines of the files that do")
        rows.append((f"grep {title}: wsref/upstream <= {limit}", f"{r:.2f}" if r else "—",
                     None if r is None else r <= limit, why))
    for name, title in GREP[:3]:
        s = samples.get(name)
        if not s or not s.get("floor"):
            continue
        r = _ratio(s, "ref_in", "floor")
        fl = _ratio(s, "pyfloor", "floor")
        why = (f"GNU grep {_s(gnu[name])} (the whole process: reading and searching in C, no decoding); Python's read floor "
               f"alone is {fl:.1f}x GNU grep" if fl else "")
        rows.append((f"grep {title}: wsref inside <= 3x GNU `grep -rn`", f"{r:.1f}x" if r else "—",
                     None if r is None else r <= 3.0, why))
    spec = data.get("spec_loading") or {}
    if spec.get("warm"):
        warm, cold, imp = _median(spec["warm"]), _median(spec["cold"]), _median(spec["import"])
        rows.append(("spec loading <= 0.1 s per process", f"{_s(warm)} (import of wsconf.spec {_s(imp)})",
                     warm <= 0.1, f"from the cache (a pickle keyed by the spec files' hashes); a cold load "
                     f"(libyaml, PyYAML for the 3 files it refuses, JSON Schema validation) takes {_s(cold)}"))
    for adapter in ("reference", "mastra"):
        for mode, limit in (("serial", 8.0), ("-n 2", 5.0)):
            xs = runs.get(f"{adapter} {mode}")
            if not xs:
                continue
            wall = _median([x["seconds"] for x in xs])
            rows.append((f"suite {adapter} {mode} <= {limit:.0f} s", _s(wall), wall <= limit,
                         _suite_limit(xs, mode)))
    tc = data.get("test_command")
    if tc:
        slow = ", ".join(f"{name.split('::')[-1]} {s:.0f} s" for s, name in tc["slowest"][:4])
        failed = "".join(f"; failed: `{name}`" for name in tc.get("failed", []))
        rows.append(("`make test` (pytest -n 2 tests) <= 90 s", _s(tc["seconds"]), tc["seconds"] <= 90 and tc["ok"],
                     f"{tc['outcome']}{failed}; CPU {tc['cpu']:.0f} s on 2 cores, so {tc['cpu'] / 2:.0f} s at the "
                     f"least on an idle machine; slowest: {slow} (whole-suite runs in child processes: each "
                     f"is a test of its own, and their CPU is most of the command's)"))
    out += ["## Targets (issue 19)", "", "| target | measured | status | what limits it |", "|---|---|---|---|"]
    out += [f"| {t} | {m} | {_status(ok)} | {why} |" for t, m, ok, why in rows]
    out += [""]

    # -- grep --------------------------------------------------------------------------------------
    out += ["## grep", "", "| workload | wsref inside | mastra inside | wsref/mastra | GNU grep | wsref/GNU grep | "
            "Python read floor | floor/GNU grep |", "|---|---|---|---|---|---|---|---|"]
    for name, title in GREP:
        s = samples.get(name)
        if not s:
            continue
        med = {v: _median(s.get(v, [])) for v in ("ref_in", "up_in", "floor", "pyfloor")}
        r = _ratio(s, "ref_in", "up_in")
        rf = _ratio(s, "ref_in", "floor")
        pf = _ratio(s, "pyfloor", "floor")
        out.append(f"| {title} | {_s(med['ref_in'])} | {_s(med['up_in'])} | {r:.2f} | {_s(med['floor'])} | "
                   f"{rf:.1f}x | {_s(med['pyfloor'])} | {pf:.1f}x |" if r and rf and pf else
                   f"| {title} | {_s(med['ref_in'])} | {_s(med['up_in'])} | — | {_s(med['floor'])} | — | — | — |")
    out += ["", GREP_NOTES, ""]

    # -- the suite ---------------------------------------------------------------------------------
    if runs:
        out += ["## The conformance suite", "", "| run | wall (median) | CPU, harness and workers | CPU, bridge | "
                "rounds | last outcome |", "|---|---|---|---|---|---|"]
        for key, xs in runs.items():
            bridge = _median([x["bridge_cpu"] for x in xs])
            cpu = _median([x["cpu"] - (x["bridge_cpu"] or 0) for x in xs])
            out.append(f"| {key} | {_s(_median([x['seconds'] for x in xs]))} | {_s(cpu)} | "
                       f"{_s(bridge) if bridge is not None else '—'} | {len(xs)} | {xs[-1]['outcome']} |")
        failed = [(key, case, message) for key, xs in runs.items() for x in xs
                  for case, message in (x.get("failed") or {}).items()]
        for mode in ("serial", "-n 2"):
            r = _ratio({k: [x["seconds"] for x in v] for k, v in runs.items()}, f"reference {mode}", f"mastra {mode}")
            if r:
                out.append(f"| ratio reference/mastra, {mode} | {r:.2f} | | | | |")
        out += ["", "CPU, bridge: the bridge processes' own CPU time (user + system, the commands they run included), "
                "recorded around each by `tools/bench/cputime.py`; CPU, harness and workers: the rest of the run's "
                "CPU (pytest, xdist workers, the cases' trees and judging).", ""]
        if failed:
            out += ["Cases that failed in these runs (the message's start):", ""]
            out += [f"- {key}: `{case}`: {' '.join(message.split())[:300]}" for key, case, message in failed]
            out += [""]
        out += _scaling(suite, mach.get("nproc", "2"))
    if tc:
        out += ["## The test command", "", f"`pytest -n 2 --dist worksteal tests` (what `make test` runs after "
                f"set-up): {_s(tc['seconds'])}, CPU {tc['cpu']:.0f} s, {tc['outcome']}.", "",
                "| slowest tests | seconds |", "|---|---|"]
        out += [f"| `{name}` | {s:.1f} |" for s, name in tc["slowest"]]
        out += ["", TEST_NOTES, ""]
    out += ["## Every workload", "", workloads_table, ""]
    return "\n".join(out)


def _suite_limit(xs, mode) -> str:
    last = xs[-1]
    durations = sorted(last["durations"].values(), reverse=True)
    if not durations:
        return ""
    total = sum(durations)
    slow = [d for d in durations if d >= 0.15]
    startup = last["seconds"] - (total if mode == "serial" else lpt_makespan(durations, 2))
    text = (f"the run used {last['cpu']:.1f} s of CPU for {last['seconds']:.1f} s of wall time (the rest is "
            f"waiting: for the cases' processes and timeouts, and for a core on a loaded machine); "
            f"{total:.1f} s of case time, {len(slow)} cases of >= 0.15 s hold {sum(slow):.1f} s "
            f"(timeouts the expected output names, e.g. `Process timed out after 300ms`, and commands that run "
            f"that long); the longest case {durations[0]:.2f} s; start-up and collection about {startup:.1f} s")
    if last.get("bridge_cpu") is not None:
        text += f"; the bridge's CPU {last['bridge_cpu']:.1f} s of the run's {last['cpu']:.1f} s"
    workers = 1 if mode == "serial" else 2
    waits = sum(slow) if workers == 1 else lpt_makespan(slow, workers)
    text += (f"; floor about {max(last['cpu'] / workers, waits):.1f} s, the larger of the run's CPU on "
             f"{workers} core{'s' if workers > 1 else ''} ({last['cpu'] / workers:.1f} s) and the cases of >= 0.15 s "
             f"{'end to end' if workers == 1 else 'dealt onto 2 workers'} ({waits:.1f} s: mostly the timeouts and "
             f"running commands their outputs name, which no harness change shortens; on a loaded machine they "
             f"also hold waiting for a core)")
    return text


def _scaling(suite: dict, nproc="2") -> list[str]:
    out = []
    scaling = suite.get("scaling") or {}
    serial = (suite["runs"].get("reference serial") or [None])[-1]
    if not scaling or serial is None:
        return out
    durations = list(serial["durations"].values())
    total = sum(durations)
    longest = max(durations)
    out += ["### How the suite's time grows with cores", "",
            "The reference, one run each; \"LPT\" is the busiest worker if the measured per-case durations "
            "(of the serial run) were dealt longest first onto that many workers, which is what xdist's "
            "scheduling approaches; the difference to the wall time is start-up (workers importing, "
            "collecting) and uneven scheduling.", "",
            "| workers | wall | LPT of the case durations | start-up and scheduling |", "|---|---|---|---|",
            f"| serial | {_s(serial['seconds'])} | {_s(total)} | {_s(serial['seconds'] - total)} |"]
    overheads = []
    for n, res in sorted(scaling.items(), key=lambda kv: int(kv[0])):
        lpt = lpt_makespan(durations, int(n))
        overheads.append(res["seconds"] - lpt)
        out.append(f"| -n {n} | {_s(res['seconds'])} | {_s(lpt)} | {_s(res['seconds'] - lpt)} |")
    # Start-up as measured with as many workers as cores (more workers than cores adds contention
    # that a bigger machine would not have).
    cores = int(nproc) if str(nproc).isdigit() else 2
    fitting = [(int(n), o) for (n, _), o in zip(sorted(scaling.items(), key=lambda kv: int(kv[0])), overheads)
               if int(n) <= cores]
    at, over = max(fitting) if fitting else (0, max(overheads, default=0.0))
    out += [f"| 8 (estimate) | {_s(lpt_makespan(durations, 8) + over)} | {_s(lpt_makespan(durations, 8))} | "
            f"{_s(over)} (as measured at -n {at}) |",
            f"| 32 (estimate) | {_s(lpt_makespan(durations, 32) + over)} | {_s(lpt_makespan(durations, 32))} | "
            f"{_s(over)} |", "",
            f"The critical path is the longest case, {longest:.2f} s: no number of workers makes the suite shorter "
            f"than that plus the start-up. The {len(durations)} cases take {total:.1f} s in all; the ten longest "
            f"hold {sum(sorted(durations)[-10:]):.1f} s.", ""]
    subsets = suite.get("subsets") or []
    if subsets:
        out += ["### How it grows with the number of cases", "", "| cases run | serial wall | per case |", "|---|---|---|"]
        for label, res in subsets:
            n = len(res["durations"])
            out.append(f"| {n} ({label}) | {_s(res['seconds'])} | {res['seconds'] / n * 1000:.1f} ms |")
        out.append(f"| {len(durations)} (all) | {_s(serial['seconds'])} | "
                   f"{serial['seconds'] / len(durations) * 1000:.1f} ms |")
        out += ["", "Time is start-up plus the sum of the cases' own durations: a new case that waits for nothing "
                "costs a few milliseconds, one that waits for a process or a timeout costs that wait "
                "(see the critical path above).", ""]
    out += ["### Sharding the suite over a CI matrix", "",
            "Each machine of the matrix runs some tool families and writes its results; one job merges them "
            "(the same label given several times is one implementation's run, concatenated):", "", "```sh",
            "wsconf run --adapter mastra -n 2 --tool read_file --tool grep --results shard-1.jsonl   # machine 1",
            "wsconf run --adapter mastra -n 2 --tool workspace --tool filesystem --results shard-2.jsonl  # machine 2",
            "wsconf report --readme README.md 'impl=shard-1.jsonl' 'impl=shard-2.jsonl' ...        # the merge job",
            "```", "", "The tool families packed into four shards by their measured serial durations:", "",
            "| shard | tools | case time |", "|---|---|---|"]
    for i, (tools, seconds) in enumerate(shards(serial["durations"], serial["tools"], 4), 1):
        out.append(f"| {i} | {', '.join(sorted(tools))} | {_s(seconds)} |")
    out += ["", "Tags (`--tag`) and `-k` select finer slices the same way; a shard's wall time is its case time "
            "plus the start-up above.", ""]
    return out


GREP_NOTES = """How wsref's grep gets there (outputs byte-identical: every grep case, the properties and the
differential, `tests/test_grep_search.py` against the per-line engine and through node):

- **Containment once per directory.** `LocalFilesystem.contained_reader()` works out each walked
  directory's absolute and real path once; a file then costs two string tests and an `lstat`, and a
  symbolic link or anything but a regular file goes through `read_file` itself.
- **The literal prefilter.** The ASCII strings every match must contain (`js/regexp_lines.py`, as
  ripgrep does; lowered under `/i`, where an ASCII character is only equivalent to ASCII ones) are
  looked for in the file's bytes: most files are never decoded.
- **A whole-text search per file.** When nothing in the pattern can match a newline, the pattern with
  multiline `^`/`$` over the whole text gives every line's first match exactly; when something can but
  no negative lookaround can, it is a lower bound and only the line it lands on is tested; otherwise
  lines are tested one by one, as before.
- **RE2 as a DFA prefilter** (`google-re2`), for the patterns it can express (no lookaround or back
  reference), with the pattern's classes written out as code-point ranges: it only ever says "this
  file cannot match", so it cannot change an answer. `regress` (Rust's ECMAScript engine) was
  evaluated as the engine and rejected: it matches code points, not UTF-16 units (`/^.$/` matches
  an emoji, V8 does not), folds `/ſ/i` onto `s` (V8 does not), and was slower than Python's `re` on
  the regex workload.
- **UTF-16 only for shown lines.** The text is searched as code points when the pattern cannot tell
  the difference; columns and the 500-unit cut are counted in UTF-16 units for the shown lines only."""

TEST_NOTES = """The test command runs the whole suite five times in child processes (the reference in
process and over the protocol, the upstream, @mastra/s3 on moto and @mastra/gcs on fake-gcs-server),
and once more against the example port from the installed wheel; those children are most of its
time. The checks that no process outlives a run are made on the reference's and the upstream's
whole-suite runs (each child in a TMPDIR of its own) rather than on further runs of the sandbox
cases. `--dist worksteal` keeps both workers busy to the end; every child loads the spec from the
cache. The installed-wheel tests build the wheel without build isolation and install it with
`--no-deps` into a venv that sees this one's dependencies (their requirements checked against the
wheel's metadata): nothing is downloaded, and their set-up takes seconds rather than the minute and
a half a fresh resolve took. What is left is CPU: the command's CPU time over two cores is its floor
on an idle machine, and the whole-suite children hold most of it; each is the one test of what it
checks (an implementation's whole conformance, its leftover processes, its servers stopped), so
none is dropped or shortened."""
