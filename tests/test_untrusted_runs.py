"""Whole runs (the plugin in a child pytest) against one fake per misbehaviour (tests/fakes/), in the
default mode (confined, where bwrap and the kernel allow: here they do) and, where it says
something else, unconfined: each run ends with its exact records, every case recorded, the results
file the harness's own, nothing outside the case folders changed and nothing left running."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import REPO, read_file_cases
from wsconf.isolation.confine import why_not
from wsconf.isolation.mounts import mounts_under
from wsconf.results.records import ResultsError, load_results

FAKES = Path(__file__).parent / "fakes"
CALL = "s1 (mastra_workspace_read_file)"
PATHS = {"first": "a.txt", "bad": "bad.txt", "third": "a.txt"}
NUL = bytes(1)

pytestmark = pytest.mark.skipif(why_not() is not None, reason=f"cannot confine here: {why_not()}")


def running_with(mark: str) -> list[str]:
    """Live processes whose command line or environment holds mark (every process a fake starts
    inherits $WSCONF_FAKE_MARK)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if (mark.encode() in cmdline or f"WSCONF_FAKE_MARK={mark}".encode() in environ.split(NUL)) \
                and state not in ("Z", "X"):
            found.append(f"{pid} {cmdline.replace(NUL, b' ').decode(errors='replace')}")
    return found


class Run:
    """A child pytest over a mini spec against one fake; its exit status, output and files."""

    def __init__(self, tmp_path: Path, mini_spec: Path, paths=PATHS):
        (mini_spec / "cases" / "read_file" / "t.yaml").write_text(read_file_cases(paths))
        self.spec, self.tmp = mini_spec, tmp_path
        self.results, self.junit = tmp_path / "r.jsonl", tmp_path / "r.xml"
        self.mark = f"wsconf-fake-{uuid.uuid4().hex[:12]}"  # short: a command line is shown cut at 120
        self.confined = False  # until it runs
        (tmp_path / "tmp").mkdir(exist_ok=True)

    def __call__(self, fake: str, *args: str, confined=True, extra=(), timeout=300, python=sys.executable):
        adapter = f"cmd:{sys.executable} {FAKES / fake} {' '.join(args)}"
        argv = [python, "-m", "pytest", str(self.spec / "cases"), "-q", "-p", "no:cacheprovider",
                "--wsconf-adapter", adapter, "--wsconf-results", str(self.results), "--junitxml", str(self.junit),
                "--wsconf-fresh", "0", *([] if confined else ["--wsconf-unconfined"]), *extra]
        self.confined = confined
        env = {**os.environ, "TMPDIR": str(self.tmp / "tmp"), "WSCONF_FAKE_MARK": self.mark}
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, timeout=timeout, env=env)
        self.code, self.output = proc.returncode, proc.stdout + proc.stderr
        return self

    def records(self) -> list[tuple[str, str, str]]:
        """(id, outcome, message) of every case, from a results file the harness vouches for."""
        results = load_results(self.results, require_end=True)
        return [(r["id"], r["outcome"], r["message"]) for r in results.records.values()]

    def ended(self) -> bool:
        """Did the run write its results' end line (a run that could not start writes none)?"""
        try:
            self.end()
        except (OSError, ResultsError):
            return False
        return True

    def end(self) -> dict:
        return load_results(self.results, require_end=True).end

    def summary_counts(self) -> dict[str, int]:
        """The summary's `all` row, by outcome (its columns in the plugin's order)."""
        row = next(line for line in self.output.splitlines() if line.startswith("all "))
        names = ["passed", "failed", "xfail", "xpass", "unsupported", "not_applicable", "error"]
        return {n: int(v) for n, v in zip(names, row.split()[2:]) if int(v)}

    def junit_cases(self):
        return [(c.get("name"), [child.tag for child in c if child.tag != "properties"])
                for c in ET.parse(self.junit).iter("testcase") if c.get("name")]

    def nothing_left(self) -> list[str]:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and running_with(self.mark):
            time.sleep(0.1)
        return running_with(self.mark)


@pytest.fixture
def run(tmp_path, mini_spec):
    """A run against a fake; afterwards, nothing the fake started may still run, and a confined one
    changed nothing the run watches outside its case folders (the spec, the expectations, the top
    of site-packages and of /etc)."""
    fake_run = Run(tmp_path, mini_spec)
    yield fake_run
    assert fake_run.nothing_left() == []
    if fake_run.confined and fake_run.ended():
        assert [r for r in fake_run.end()["failed_because"] if r.startswith("changed outside")] == []


def around(outcome: str, message: str):
    return [("read_file.t.first", "passed", ""), ("read_file.t.bad", outcome, message),
            ("read_file.t.third", "passed", "")]


# -- mount ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("confined", [True, False])
def test_a_folder_mounted_into_the_root_is_never_emptied(run, tmp_path, confined):
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "keep.txt").write_text("keep me\n")
    run("mounts_outside.py", str(precious), confined=confined)
    assert run.code == 1, run.output[-3000:]
    records = run.records()
    assert records[::2] == around("passed", "")[::2]
    bad_id, outcome, message = records[1]
    root = r"/\S+/wsconf-run-[^/]+/wsconf-[^/]+/root"
    where = (r"in its own mount namespace \(the harness's view of the folder was not touched\)" if confined
             else r": detached before anything there was removed")
    assert (bad_id, outcome) == ("read_file.t.bad", "failed")
    assert re.fullmatch(rf"mounted \S+:{re.escape(str(precious))} at {root}/m in the case's folder,? ?{where}",
                        message), message
    assert (precious / "keep.txt").read_text() == "keep me\n" and sorted(os.listdir(precious)) == ["keep.txt"]
    assert mounts_under(tmp_path) == []
    assert run.end()["counts"] == run.summary_counts() == {"passed": 2, "failed": 1}


# -- forge ----------------------------------------------------------------------------------------

def own_python(tmp_path: Path) -> str:
    """A Python of its own for a child run, seeing this one's packages: its site-packages (which the
    run watches) is the test's, not the one every other test's runs use."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "_wsconf_test_parent.pth").write_text(
        f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    return str(venv / "bin" / "python")


@pytest.mark.parametrize("confined", [True, False])
def test_forged_results_are_refused_or_put_back_and_every_change_outside_is_named(run, tmp_path, mini_spec, confined):
    exp = tmp_path / "exp"
    exp.mkdir()
    (exp / "forges-results.yaml").write_text("implementation: forges-results\nfailures: {}\n")
    python = own_python(tmp_path)
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # Confined, it may try the real /etc: it is read-only there. Unconfined it would write it, and
    # every other run on the machine would see the change: it gets a folder of the test's instead.
    system = "/etc" if confined else str(tmp_path / "etc")
    (tmp_path / "etc").mkdir()
    name = f"wsconf-fake-{uuid.uuid4().hex[:12]}"
    log = tmp_path / "tmp" / "forger.log"
    run("forges_results.py", str(run.results), str(run.junit), str(exp / "forges-results.yaml"),
        str(mini_spec / "claims.yaml"), site, system, name, str(log), confined=confined,
        extra=("--wsconf-expectations", str(exp)), python=python)
    tried = log.read_text().splitlines() if log.exists() else []
    assert not Path("/etc", name).exists()
    assert run.code == 1, run.output[-3000:]
    message = ("step 's1' (s1 (mastra_workspace_read_file)): the text differs\n--- expected ---\n"
               "fine  ⏎̸ (no final newline)\n--- actual ---\nnot what the case expects  ⏎̸ (no final newline)\n")
    records = run.records()  # the end line vouches for the file, whatever the fake did to it
    assert records[::2] == around("passed", "")[::2]
    assert records[1][:2] == ("read_file.t.bad", "failed") and records[1][2].startswith(message)
    assert run.junit_cases() == [("read_file.t.first", []), ("read_file.t.bad", ["failure"]),
                                 ("read_file.t.third", [])]
    if confined:  # it could reach none of them; the run fails for its one wrong answer alone
        assert tried == []  # nowhere to write, not even its log: that is outside its case folders too
        assert run.end()["failed_because"] == []
        assert "forged" not in (exp / "forges-results.yaml").read_text() + (mini_spec / "claims.yaml").read_text()
        assert not Path(site, f"{name}.pth").exists()
    else:  # it could: each change is named, and the results are put back from the harness's copy
        assert tried == ["results: done", "junit: done", "expectations: done", "spec: done", "site-packages: done",
                         "system: done"]
        changed = sorted([str(exp / "forges-results.yaml"), str(mini_spec / "claims.yaml"), f"{site}/{name}.pth"])
        assert run.end()["failed_because"] == [f"changed outside the run while it ran: {path}" for path in changed]
        assert run.end()["rewritten"] == (f"the results file {run.results} was changed during the run by something "
                                          "other than the harness: rewritten from the harness's own copy")
        for path in changed:
            assert f"the run fails: changed outside the run while it ran: {path}" in run.output


def test_the_top_of_etc_and_site_packages_are_watched(tmp_path, monkeypatch):
    """What the run watches outside its folders: a folder like /etc by its top level (a new or
    rewritten file there is named), the spec whole (a change deep inside is named)."""
    from wsconf.isolation import watch
    etc, spec = tmp_path / "etc", tmp_path / "spec"
    (etc / "ssh").mkdir(parents=True)
    (spec / "cases").mkdir(parents=True)
    (etc / "passwd").write_text("root:x:0:0\n")
    (spec / "cases" / "a.yaml").write_text("cases: []\n")
    places = [(spec, True), (etc, False)]
    before = watch.snapshot(places)
    (etc / "passwd").write_text("root:x:0:0\nwsconf:x:0:0\n")
    (etc / "cron.d").mkdir()
    (etc / "ssh" / "deep.conf").write_text("not looked at: below the top level\n")
    (spec / "cases" / "a.yaml").write_text("cases: [forged]\n")
    assert watch.changes(before, watch.snapshot(places)) == [str(etc / "cron.d"), str(etc / "passwd"),
                                                             str(spec / "cases" / "a.yaml")]
    assert [str(p) for p, whole in watch.watched_places([spec], None)][-1] == "/etc"


def test_a_results_file_changed_after_the_run_is_refused_by_report_compare_and_findings(run, tmp_path):
    run("ansi_result.py")
    text = run.results.read_text()
    run.results.write_text(text.replace('"outcome": "failed"', '"outcome": "passed"'))
    for command in (["report", f"x={run.results}"], ["compare", str(run.results), str(run.results)],
                    ["findings", str(run.results)]):
        done = subprocess.run([sys.executable, "-m", "wsconf.cli", *command], capture_output=True, text=True)
        assert done.returncode == 2, done.stderr
        assert re.fullmatch(rf"wsconf {command[0]}: {re.escape(str(run.results))}:5: the sha256 in the end line "
                            "does not match the lines before it: the file was changed after the run\n", done.stderr)
    with pytest.raises(ResultsError):
        load_results(run.results)


# -- vanish ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape, call, problem", [
    ("null", CALL, "adapter answered 'call' with the wrong shape: the call's Result must be an object with `kind`, "
                   "got null"),
    ("string", CALL, "adapter answered 'call' with the wrong shape: the call's Result must be an object with "
                     "`kind`, got the string 'fine'"),
    ("no_kind", CALL, "adapter answered 'call' with the wrong shape: the call's Result must have `kind` one of "
                      "text, media, value, error, got null"),
    ("no_result", CALL, "adapter answered 'call' with ok and no `result`"),
    ("open", "open", "adapter answered 'open' with the wrong shape: open must answer {\"session\": \"<id>\"} or "
                     "{\"error\": <Result>}, got null"),
])
def test_an_answer_of_the_wrong_shape_is_an_error_of_its_case_and_recorded(run, shape, call, problem):
    run("malformed_answers.py", shape)
    assert run.code == 1, run.output[-3000:]
    assert run.records() == around("error", f"adapter fault in case read_file.t.bad, call {call}: {problem}")
    assert run.end()["counts"] == run.summary_counts() == {"passed": 2, "error": 1}
    assert run.junit_cases() == [("read_file.t.first", []), ("read_file.t.bad", ["failure"]),
                                 ("read_file.t.third", [])]


def test_a_worker_that_dies_leaves_an_error_record(run):
    """Unconfined, an implementation can kill the xdist worker running it (confined it cannot: the
    next test); the case it was running is recorded as an error, the others as they ended."""
    run("signals_harness.py", "KILL", "parent", confined=False, extra=("-n", "2"))
    assert run.code == 1, run.output[-3000:]
    records = sorted(run.records())
    assert [r[:2] for r in records] == [("read_file.t.bad", "error"), ("read_file.t.first", "passed"),
                                        ("read_file.t.third", "passed")]
    assert re.fullmatch(r"the worker running case read_file\.t\.bad died before recording it: worker 'gw\d' crashed "
                        r"while running '\S+/t\.yaml::read_file\.t\.bad'", records[0][2]), records[0][2]
    assert run.end()["counts"] == run.summary_counts() == {"passed": 2, "error": 1}


# -- no tools -------------------------------------------------------------------------------------

def test_an_implementation_declaring_no_tools_tested_nothing_and_fails(run):
    run("no_tools.py", "none")
    assert run.code == 1, run.output[-3000:]
    assert run.records() == [(f"read_file.t.{n}", "unsupported", "no_tools does not implement mastra_workspace_read_file")
                             for n in PATHS]
    reason = "nothing was tested: every case was unsupported: the implementation declared no tools"
    assert run.end()["failed_because"] == [reason]
    assert f"the run fails: {reason}" in run.output


def test_capabilities_sent_as_a_string_stop_the_run_before_any_case(run):
    run("no_tools.py", "string")
    assert run.code == 3, run.output[-3000:]
    assert ("could not start adapter 'cmd:" in run.output and "hello: `capabilities` must be a list of capability ids "
            "(strings), got the string 'filesystem'" in run.output)
    assert run.records() == [] and run.end()["counts"] == {}  # no case ran, and the file says so


# -- pre-hello daemon -----------------------------------------------------------------------------

@pytest.mark.parametrize("confined", [True, False])
def test_a_daemon_started_before_hello_is_named_and_does_not_outlive_the_run(run, confined):
    run("pre_hello_daemon.py", confined=confined)
    assert run.code == 1, run.output[-3000:]
    assert run.records() == around("passed", "")
    [reason] = run.end()["failed_because"]
    assert re.fullmatch(rf"the implementation left 1 process\(es\) running when it shut down \(killed\): "
                        rf"\S+python\S* -c import sys, time; time.sleep\(int\(sys.argv\[1\]\)\) 300 {run.mark} "
                        r"\(pid \d+\)", reason), reason
    assert run.nothing_left() == []


# -- transformed leaks ----------------------------------------------------------------------------

LEAKS = {"noprefix": ("raw", "the text"), "upper": ("in another case", "the text"), "reversed": ("reversed", "the text"),
         "rot13": ("rot13", "the text"), "base32": ("base32", "the text"), "gzip": ("gzip+base64", "the text"),
         "hex": ("hex", "the text"), "spaced": ("spaced out", "the text"), "model": ("raw", "the model output"),
         "extra": ("raw", "a member of the response beside its result")}


def test_a_token_leaked_in_any_form_or_member_fails_its_case(tmp_path, mini_spec):
    run = Run(tmp_path, mini_spec, {"clean": "a.txt", **{name: f"{name}.txt" for name in LEAKS}})
    run("leaks_transformed.py")
    assert run.code == 1, run.output[-3000:]
    expected = [("read_file.t.clean", "passed", "")]
    for name, (form, where) in LEAKS.items():
        said = (f"step 's1' ({CALL}) leaked" if name != "extra" else f"{CALL} leaked")
        expected.append((f"read_file.t.{name}", "failed",
                         f"{said} the content of sibling/CANARY, outside the workspace ({form}, in {where})"))
    assert run.records() == expected
    assert run.nothing_left() == []


# -- signals --------------------------------------------------------------------------------------

@pytest.mark.parametrize("sig", ["STOP", "TERM"])
def test_a_confined_implementation_cannot_find_the_harness_to_signal_it(run, sig):
    run("signals_harness.py", sig, timeout=120)
    assert run.code == 1, run.output[-3000:]
    records = run.records()
    assert records[::2] == around("passed", "")[::2]
    assert records[1][:2] == ("read_file.t.bad", "failed")
    assert "--- actual ---\nfound no harness to signal  ⏎̸ (no final newline)" in records[1][2]
    assert run.nothing_left() == []


def test_a_confined_implementation_cannot_kill_its_worker(run):
    run("signals_harness.py", "KILL", "parent", extra=("-n", "2"))
    assert run.code == 1, run.output[-3000:]
    records = sorted(run.records())
    assert [r[:2] for r in records] == [("read_file.t.bad", "failed"), ("read_file.t.first", "passed"),
                                        ("read_file.t.third", "passed")]
    assert "--- actual ---\nsignalled its parent (pid 1)  ⏎̸ (no final newline)" in records[0][2]


# -- ANSI -----------------------------------------------------------------------------------------

def test_terminal_escapes_in_an_answer_never_reach_the_terminal_raw(run):
    run("ansi_result.py")
    assert run.code == 1, run.output[-3000:]
    assert "\x1b" not in run.output
    assert "\\x1b[2K\\x1b[1A\\x1b[32m53 passed\\x1b[0m" in run.output
    assert [r[:2] for r in run.records()] == [r[:2] for r in around("failed", "")]
    assert run.end()["counts"] == run.summary_counts() == {"passed": 2, "failed": 1}


# -- answering from the spec ----------------------------------------------------------------------

READ_CASES = ("read_file.output.page_example", "read_file.output.trailing_newline_extra_row",
              "read_file.output.crlf_kept", "read_file.output.no_trailing_newline")  # none a prefix of another id


@pytest.mark.parametrize("confined", [True, False])
def test_answers_looked_up_in_the_spec_fail_on_fresh_inputs(tmp_path, confined):
    """The fake looks its answers up in the spec the run uses. Confined, the spec is not there for
    it; unconfined, it passes fixed cases but not the fresh ones, and the run fails saying so."""
    from conftest import SPEC
    spec = tmp_path / "spec"
    shutil.copytree(SPEC, spec, ignore=shutil.ignore_patterns("cases", "states", "upstream-tests"))
    (spec / "cases" / "read_file").mkdir(parents=True)
    source = (SPEC / "cases" / "read_file" / "output.yaml").read_text()
    (spec / "cases" / "read_file" / "output.yaml").write_text(source)
    run = Run(tmp_path, spec, {})
    (spec / "cases" / "read_file" / "t.yaml").unlink()
    run("answers_from_spec.py", str(spec), confined=confined,
        extra=("-k", " or ".join(READ_CASES), "--wsconf-fresh", "3", "--wsconf-fresh-seed", "7"))
    assert run.code == 1, run.output[-3000:]
    records = {i: outcome for i, outcome, _ in run.records()}
    fixed = {i: o for i, o in records.items() if not i.startswith("fresh.")}
    assert sorted(fixed) == sorted(READ_CASES)
    assert {i: o for i, o in records.items() if i.startswith("fresh.")} == {
        "fresh.read_file.1": "failed", "fresh.read_file.2": "failed", "fresh.read_file.3": "failed"}
    line = next(line for line in run.output.splitlines() if "fresh inputs: passed" in line)
    if confined:
        assert set(fixed.values()) == {"failed"}
        assert line.strip() == "read_file              fresh inputs: passed 0 of 3; fixed cases: 0% of 4"
        assert run.end()["failed_because"] == []
    else:
        assert set(fixed.values()) == {"passed"}
        assert line.strip() == ("read_file              fresh inputs: passed 0 of 3; fixed cases: 100% of 4: "
                                "answers match the spec but not fresh inputs")
        assert run.end()["failed_because"] == ["read_file: answers match the spec but not fresh inputs"]
    assert run.nothing_left() == []


# -- where it cannot be confined -------------------------------------------------------------------

UNCONFINED = ("UNCONFINED: bwrap is not installed (apt-get install bubblewrap): the implementation runs as this "
              "user, only watched")


def test_without_bwrap_the_run_says_unconfined_in_its_header_results_and_report(run, tmp_path, monkeypatch):
    """bwrap hidden from PATH, as on a machine without it: the run goes on, unconfined, and says so."""
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    run("ansi_result.py")
    assert run.code == 1, run.output[-3000:]
    assert [line for line in run.output.splitlines() if line.startswith("confinement:")] == [
        f"confinement:    {UNCONFINED}"]
    assert load_results(run.results).run["confinement"] == UNCONFINED
    assert [r[:2] for r in run.records()] == [r[:2] for r in around("failed", "")]
    done = subprocess.run([sys.executable, "-m", "wsconf.cli", "report", f"fake={run.results}"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert "| fake (UNCONFINED) | 3 | 2 | 1 | 0 | 0 |" in done.stdout
    assert ("fake (UNCONFINED): the implementation was not confined in this run (its results' first line says why); "
            "what it may have changed outside its case folders was only watched") in done.stdout
    run("ansi_result.py", extra=("--wsconf-hermetic",))
    assert run.code == 3, run.output[-3000:]
    assert f"cannot confine adapter 'cmd:{sys.executable} {FAKES / 'ansi_result.py'} ' (--hermetic): bwrap" \
        in run.output
