"""The release matrix over a CI matrix: the deal of (release, case) pairs to N shards, the merge of
the shards into the matrix a single run writes (and its refusals), and the workflow `wsconf init
--matrix N` writes."""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from test_releases import _fake_matrix, _small_spec
from wsconf.cli import main
from wsconf.releases import shards as sh
from wsconf.releases.history import load_matrix
from wsconf.results.journal import write_results
from wsconf.results.records import load_results
from wsconf.releases.shard_merge import merge_shards
from wsconf.spec import load_spec

VERSIONS = ["1.11.0", "1.71.0"]
# What may differ between a single run and the merged shards: the clock, and the terminal output.
TIMING_IN_RECORDS = ("duration",)
TIMING_IN_STATUS = ("seconds", "install_seconds")
LOGS = ("run.log",)


def matrix_files(folder: Path) -> dict[str, bytes]:
    """Every file of a matrix folder, its timing fields taken out; the logs left out."""
    out = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = str(path.relative_to(folder))
        if path.name in LOGS:
            continue
        data = path.read_bytes()
        if path.name == "results.jsonl":
            load_results(path, require_end=True)                 # whole, its end line's sha256 true
            lines = data.decode().splitlines()
            records = [json.loads(line) for line in lines[1:]]
            for record in records:
                for name in TIMING_IN_RECORDS:
                    record.pop(name, None)
                record.get("end", {}).pop("sha256", None)       # of the lines, their durations included
            header = json.loads(lines[0])
            header["run"].pop("fresh_seed", None)                  # each run's random seed (no fresh case by id)
            data = "\n".join([json.dumps(header)] + [json.dumps(r) for r in records]).encode()
        elif path.name == "status.json":
            status = json.loads(data)
            for name in TIMING_IN_STATUS:
                status.pop(name, None)
            data = json.dumps(status, sort_keys=True).encode()
        out[rel] = data
    return out


# -- the deal --------------------------------------------------------------------------------------

def test_every_pair_is_dealt_to_exactly_one_shard_about_evenly_and_always_alike():
    rng = random.Random(7)
    versions = [f"1.{n}.0" for n in range(11, 74)]          # 63 releases
    ids = [f"case.{n}" for n in range(300)]
    measured = sh.Durations({(v, i): rng.choice([0.01, 0.02, 0.3, 1.5, 15.0]) for v in versions[::3] for i in ids})
    for count in (1, 8, 16, 64, 100):
        dealt = sh.deal(list(reversed(versions)), ids, measured, count)
        assert dealt == sh.deal(versions, ids, measured, count)   # deterministic, whatever order the releases come in
        assert len(dealt) == count
        pairs = [(v, i) for shard in dealt for v, got in shard.items() for i in got]
        assert len(pairs) == len(set(pairs)) == len(versions) * len(ids)
        for shard in dealt:                                       # releases oldest first, cases in spec order
            assert list(shard) == sorted(shard, key=lambda v: tuple(map(int, v.split("."))))
            assert all(got == [i for i in ids if i in set(got)] for got in shard.values())
        costs = [sh.expected_seconds(shard, measured) for shard in dealt]   # a release split is installed twice
        unsplit = sum(measured.of(v, i) for v in versions for i in ids) + sh.RELEASE_SECONDS * len(versions)
        largest = max(measured.of(v, i) for v in versions for i in ids) + sh.RELEASE_SECONDS
        assert max(costs) <= unsplit / count + largest              # within one pair and one install of the mean
        assert sum(len(shard) for shard in dealt) <= len(versions) + count - 1   # each cut splits one release at most
    # The longest shard as short as it can be: here, two releases of 3 cases, on 2 runners.
    small = sh.Durations({("1.11.0", "a"): 10.0, ("1.11.0", "b"): 4.0, ("1.11.0", "c"): 4.0,
                          ("1.12.0", "a"): 2.0, ("1.12.0", "b"): 2.0, ("1.12.0", "c"): 2.0})
    assert sh.deal(["1.12.0", "1.11.0"], ["a", "b", "c"], small, 2, workers=2) == [
        {"1.11.0": ["a", "b", "c"]}, {"1.12.0": ["a", "b", "c"]}]      # not 1.11.0 split, installed twice
    assert sh.deal(["1.11.0"], ["a", "b", "c"], small, 3) == [{"1.11.0": ["a"]}, {"1.11.0": ["b", "c"]}, {}]  # 85, 83 s
    assert sh.deal(["1.11.0"], [], small, 2) == [{}, {}]
    # Unmeasured: a case's median over the releases that ran it, then the default estimate.
    assert measured.of("1.12.0", "case.0") == pytest.approx(
        sorted(measured.pairs[(v, "case.0")] for v in versions[::3])[len(versions[::3]) // 2])
    assert sh.Durations().of("1.12.0", "case.0") == sh.DEFAULT_CASE_SECONDS


def test_a_shard_is_named_i_of_n_and_durations_name_their_source(tmp_path):
    assert sh.parse_shard("3/8") == (3, 8)
    for bad in ("0/8", "9/8", "3", "a/b", ""):
        with pytest.raises(sh.ShardError, match="expected I/N"):
            sh.parse_shard(bad)
    with pytest.raises(sh.ShardError, match=f"--durations {tmp_path / 'none'}: no such file"):
        sh.load_durations([str(tmp_path / "none")])
    with pytest.raises(sh.ShardError, match="no <version>/results.jsonl"):
        sh.load_durations([str(tmp_path)])
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps({"run": {"implementation": "@mastra/core", "version": "1.65.0"}}) + "\n"
                       + json.dumps({"id": "a", "outcome": "passed", "duration": 2.5}) + "\n")
    assert sh.load_durations([str(results)]).pairs == {("1.65.0", "a"): 2.5}


# -- shards and their merge, on a stand-in for `wsconf run` ---------------------------------------

def _durations(tmp_path, spec, seconds=100.0):
    """A results file of 1.11.0 in which every case took `seconds`: long enough that shards split releases."""
    path = tmp_path / "durations.jsonl"
    path.write_text(json.dumps({"run": {"implementation": "@mastra/core", "version": "1.11.0"}}) + "\n"
                    + "".join(json.dumps({"id": c.id, "outcome": "passed", "duration": seconds}) + "\n" for c in spec.cases))
    return [str(path)]


def _shards(tmp_path, spec, count, **kw):
    folders = []
    for index in range(1, count + 1):
        folder = tmp_path / f"shard-{index}"
        sh.run_shard(folder, f"{index}/{count}", VERSIONS, spec, _durations(tmp_path, spec), workers="0",
                     wsconf=str(tmp_path / "wsconf"), log=lambda _: None, **kw)
        folders.append(folder)
    return folders


@pytest.mark.parametrize("limited", [False, True])
def test_the_merged_shards_are_the_single_run(tmp_path, monkeypatch, limited):
    m, run, _ = _fake_matrix(tmp_path, monkeypatch)
    spec = _small_spec(tmp_path)
    only = {c.id for c in spec.cases[1:]} if limited else None
    run(spec, only=only)                                         # the single run, into tmp_path/matrix
    folders = _shards(tmp_path, spec, 3, only=only)
    dealt = [json.loads((f / "shard.json").read_text())["pairs"] for f in folders]
    assert sum(len(ids) for shard in dealt for ids in shard.values()) == len(VERSIONS) * (len(only or spec.cases))
    if not limited:                                              # every shard has pairs; a release is split
        assert all(dealt) and sum(map(len, dealt)) > len(VERSIONS)
    single = tmp_path / "single"
    (tmp_path / "matrix").rename(single)
    merged = merge_shards(folders, tmp_path / "matrix", spec)    # the same path: the records name it alike
    assert merged == dict.fromkeys(VERSIONS, len(only or spec.cases))
    assert matrix_files(tmp_path / "matrix") == matrix_files(single)
    assert json.loads((tmp_path / "matrix" / "1.11.0" / "status.json").read_text())["cases_run"] == (
        len(only) if limited else "all")
    # A shard run again is up to date: nothing runs, its deal stands.
    (tmp_path / "calls.log").write_text("")
    _shards(tmp_path, spec, 3, only=only)
    assert (tmp_path / "calls.log").read_text() == ""


def _refusal(folders, out, spec):
    with pytest.raises(sh.ShardError) as caught:
        merge_shards(folders, out, spec)
    return str(caught.value)


def test_the_merge_refuses_shards_that_do_not_make_one_run_naming_the_file(tmp_path, monkeypatch):
    m, run, fingerprint = _fake_matrix(tmp_path, monkeypatch)
    spec = _small_spec(tmp_path)
    one, two, three = _shards(tmp_path, spec, 3)
    out = tmp_path / "merged"
    assert "shard(s) 2 of 3 missing" in _refusal([one, three], out, spec)
    assert f"{three / 'shard.json'}: shard 3/3 given twice (also {three / 'shard.json'})" in _refusal(
        [one, two, three, three], out, spec)
    assert f"{tmp_path / 'nowhere' / 'shard.json'}: No such file" in _refusal([one, tmp_path / "nowhere"], out, spec)

    # A shard of another deal (dealt by other durations) or another spec.
    other = tmp_path / "other"
    sh.run_shard(other, "2/3", VERSIONS, spec, durations=None, workers="0", wsconf=str(tmp_path / "wsconf"),
                 log=lambda _: None)
    assert f"{other / 'shard.json'}: another run than {one / 'shard.json'} (deal" in _refusal([one, other, three], out, spec)
    with pytest.raises(sh.ShardError, match=f"{other / 'shard.json'}: this folder holds shard 2/3 of another deal"):
        sh.run_shard(other, "2/3", VERSIONS, spec, _durations(tmp_path, spec), workers="0", log=lambda _: None)
    edited = tmp_path / "edited-spec"
    shutil.copytree(spec.root.parent, edited)
    case_file = edited / spec.cases[0].file
    case_file.write_text(case_file.read_text().replace(f"id: {spec.cases[0].id}\n", f"id: {spec.cases[0].id}_renamed\n", 1))
    assert f"{one / 'shard.json'}: run on another spec" in _refusal([one, two, three], out, load_spec(edited / "spec"))

    # The same pair in two shards (a manifest edited by hand).
    manifest = json.loads((two / "shard.json").read_text())
    taken = next(iter(json.loads((one / "shard.json").read_text())["pairs"].items()))
    (tmp_path / "two.json").write_text((two / "shard.json").read_text())
    manifest["pairs"].setdefault(taken[0], []).insert(0, taken[1][0])
    (two / "shard.json").write_text(json.dumps(manifest))
    assert f"{two / 'shard.json'}: {taken[1][0]} on {taken[0]} is also in {one / 'shard.json'}" in _refusal(
        [one, two, three], out, spec)
    shutil.copyfile(tmp_path / "two.json", two / "shard.json")

    # A release a shard did not run to a verdict: its cases have no result.
    version = next(iter(json.loads((three / "shard.json").read_text())["pairs"]))
    status = json.loads((three / version / "status.json").read_text())
    (three / version / "status.json").write_text(json.dumps({**status, "rc": "timeout"}))
    assert f"{three / version / 'status.json'}: {version} did not run to a verdict" in _refusal([one, two, three], out, spec)
    (three / version / "status.json").write_text(json.dumps(status))

    # Files cut short or edited: named with the key or line.
    results = three / version / "results.jsonl"
    kept = results.read_text()
    results.write_text(kept[: len(kept) // 2])
    assert f"{results}: not a results file ({results}:" in _refusal([one, two, three], out, spec)
    results.write_text(kept)
    keys = (three / version / "keys.json").read_text()
    (three / version / "keys.json").write_text('{"fingerprint":\n')
    assert f"{three / version / 'keys.json'}:2: not JSON" in _refusal([one, two, three], out, spec)
    (three / version / "keys.json").write_text(keys)
    (two / "shard.json").write_text(json.dumps({**manifest, "pairs": {"1.11.0": "a"}}))
    assert f"{two / 'shard.json'}: key pairs: expected release -> list of case ids" in _refusal([one, two, three], out, spec)
    shutil.copyfile(tmp_path / "two.json", two / "shard.json")

    # A release installed with other pins in two shards.
    shared = [v for v in VERSIONS if (one / v).is_dir() and (two / v).is_dir()] or \
             [v for v in VERSIONS if (two / v).is_dir() and (three / v).is_dir()]
    holders = [f for f in (one, two, three) if (f / shared[0]).is_dir()]
    status = json.loads((holders[1] / shared[0] / "status.json").read_text())
    (holders[1] / shared[0] / "status.json").write_text(json.dumps({**status, "fingerprint": "f9"}))
    assert f"{holders[1] / shared[0] / 'status.json'}: {shared[0]} ran with another fingerprint" in _refusal(
        [one, two, three], out, spec)
    (holders[1] / shared[0] / "status.json").write_text(json.dumps(status))

    (out / "1.11.0").mkdir(parents=True)
    assert f"{out}: not empty" in _refusal([one, two, three], out, spec)
    shutil.rmtree(out)
    assert set(merge_shards([three, one, two], out, spec)) == set(VERSIONS)   # in any order


def test_a_kept_actual_moves_with_its_record_into_the_merged_matrix(tmp_path, monkeypatch):
    _fake_matrix(tmp_path, monkeypatch)
    spec = _small_spec(tmp_path)
    folders = _shards(tmp_path, spec, 2)
    version, ids = next(iter(json.loads((folders[1] / "shard.json").read_text())["pairs"].items()))
    outputs = folders[1] / version / "results.part.jsonl.outputs"
    outputs.mkdir()
    (outputs / "big.read.json").write_text('"a huge actual"')
    results = folders[1] / version / "results.jsonl"
    written = load_results(results, require_end=True)
    record = written.records[ids[0]]
    record["steps"] = [{"id": "read", "actual_sha256": "0" * 64, "actual_file": str(outputs / "big.read.json")}]
    write_results(results, written.run, written.records.values(), {"counts": {"passed": len(written.records)}})
    out = tmp_path / "merged"
    merge_shards(folders, out, spec)
    merged = load_matrix(out)[version].records[ids[0]]
    moved = out / version / "results.part.jsonl.outputs" / "big.read.json"
    assert merged["steps"] == [{**record["steps"][0], "actual_file": str(moved)}]
    assert moved.read_text() == '"a huge actual"'


def test_the_command_line_runs_a_shard_merges_and_names_what_it_refuses(tmp_path, monkeypatch, capsys):
    spec = _small_spec(tmp_path)
    base = ["--spec", str(spec.root), "matrix"]
    assert main(base + ["run", "--shard", "4/3", "--releases", "1.11.0", "--matrix", str(tmp_path / "s")]) == 2
    assert "--shard '4/3': expected I/N" in capsys.readouterr().err
    assert main(base + ["run", "--durations", str(tmp_path), "--releases", "1.11.0", "--matrix", str(tmp_path / "s")]) == 2
    assert "--durations deals a sharded run (--shard I/N)" in capsys.readouterr().err
    assert main(base + ["check", "--shard", "1/2"]) == 2
    assert "--shard and --durations are options of `matrix run`" in capsys.readouterr().err
    assert main(base + ["ranges", str(tmp_path)]) == 2
    assert "shard folders are merged" in capsys.readouterr().err
    assert main(base + ["merge", str(tmp_path / "a"), "--matrix", str(tmp_path / "m")]) == 2
    assert f"refused:\n{tmp_path / 'a' / 'shard.json'}: No such file" in capsys.readouterr().err
    assert main(base + ["merge", "--matrix", str(tmp_path / "m")]) == 2
    assert "no shard folders given" in capsys.readouterr().err


# -- the workflow ------------------------------------------------------------------------------------

def test_init_matrix_writes_one_job_per_shard_and_a_merge_job(tmp_path, capsys):
    assert main(["init", "--matrix", "5", "--directory", str(tmp_path), "--install", "git+https://example.org/wsconf",
                 "--durations", "ci/durations.jsonl"]) == 0
    flow = yaml.safe_load((tmp_path / ".github" / "workflows" / "wsconf-matrix.yml").read_text())
    shard, merge = flow["jobs"]["shard"], flow["jobs"]["merge"]
    assert shard["strategy"]["matrix"]["shard"] == [1, 2, 3, 4, 5]
    runs = [s.get("run", "") for s in shard["steps"]]
    assert 'python -m pip install "git+https://example.org/wsconf"' in runs
    assert "wsconf matrix run --shard ${{ matrix.shard }}/5 --matrix shard -n 2 --durations ci/durations.jsonl" in runs
    upload = next(s for s in shard["steps"] if s.get("uses") == "actions/upload-artifact@v4")
    assert upload["with"] == {"name": "wsconf-matrix-shard-${{ matrix.shard }}", "path": "shard/"}
    assert merge["needs"] == "shard"
    download = next(s for s in merge["steps"] if s.get("uses") == "actions/download-artifact@v4")
    assert download["with"] == {"pattern": "wsconf-matrix-shard-*", "path": "shards"}
    merge_runs = [s.get("run", "").split(" |")[0] for s in merge["steps"]]
    assert merge_runs[-5:-1] == ["wsconf matrix merge shards/* --matrix matrix", "wsconf matrix ranges --matrix matrix",
                                 "wsconf changelog --matrix matrix -o BEHAVIOUR-CHANGES.md",
                                 "wsconf site --matrix matrix --changes BEHAVIOUR-CHANGES.md -o site"]
    assert not (tmp_path / "wsconf.toml").exists()    # the matrix alone: no port named
    assert main(["init", "--matrix", "5", "--directory", str(tmp_path)]) == 1
    assert "exists already" in capsys.readouterr().err
    assert main(["init", "--matrix", "0", "--directory", str(tmp_path / "x")]) == 2
    assert main(["init", "--durations", "d", "--directory", str(tmp_path / "x")]) == 2
    assert "--durations goes with --matrix N" in capsys.readouterr().err


# -- the real thing: shards as separate processes on installed releases ----------------------------

def _installed_releases(count):
    """The newest `count` releases installed in the release cache (another checkout may be reinstalling
    one with its own bridge: the others serve)."""
    from wsconf.adapters.base import AdapterUnavailable
    from wsconf.adapters.release_install import release_dir, release_root
    from wsconf.spec.versions import key
    cached = [p.name for p in release_root().glob("*.*.*") if p.is_dir()] if release_root().is_dir() else []
    found, why = [], []
    for version in sorted(cached, key=key, reverse=True):
        try:
            release_dir(version, install=False)
        except AdapterUnavailable as exc:  # not installed here, or not with this bridge's libraries
            why.append(str(exc))
            continue
        found.append(version)
        if len(found) == count:
            break
    return sorted(found, key=key), f"{len(cached)} in {release_root()}" + (f"; first refused: {why[0]}" if why else "")


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: the releases run through the bridge")
def test_shards_run_as_separate_processes_merge_into_the_single_run(tmp_path):
    versions, seen = _installed_releases(2)
    if len(versions) < 2:
        pytest.skip("fewer than two @mastra/core releases installed in the release cache with this bridge's "
                    f"libraries (wsconf run --adapter mastra@1.70.0 installs one): {seen}")
    spec = load_spec()
    ids = [c.id for c in spec.cases if c.id.startswith(("read_file.binary.", "write_file.basics."))][:10]
    (tmp_path / "ids.txt").write_text("".join(f"{i}\n" for i in ids))
    wsconf = str(Path(sys.executable).with_name("wsconf"))
    common = ["matrix", "run", "--releases", ",".join(versions), "--ids", str(tmp_path / "ids.txt"), "-n", "0"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    single = subprocess.run([wsconf, *common, "--parallel", "2", "--matrix", str(tmp_path / "matrix")], env=env, capture_output=True,
                            text=True, timeout=600)
    assert single.returncode == 0, single.stderr[-2000:]
    (tmp_path / "matrix").rename(tmp_path / "single")
    # 3 shards of 2 releases whose cases are said to take 100 s each: one release is split between two
    count, durations = 3, _durations(tmp_path, spec)
    procs = [subprocess.Popen([wsconf, *common, "--shard", f"{i}/{count}", "--durations", durations[0],
                               "--matrix", str(tmp_path / f"shard-{i}")],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for i in range(1, count + 1)]
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-2000:]
    split = [json.loads((tmp_path / f"shard-{i}" / "shard.json").read_text())["pairs"] for i in range(1, count + 1)]
    assert sum(len(ids_) for shard in split for ids_ in shard.values()) == len(ids) * len(versions)
    assert all(split) and sum(map(len, split)) > len(versions)
    merged = subprocess.run([wsconf, "matrix", "merge", *(str(tmp_path / f"shard-{i}") for i in range(1, count + 1)),
                             "--matrix", str(tmp_path / "matrix")], capture_output=True, text=True, timeout=300)
    assert merged.returncode == 0, merged.stderr
    assert f"{len(versions)} release(s), {len(ids) * len(versions)} results" in merged.stderr
    assert matrix_files(tmp_path / "matrix") == matrix_files(tmp_path / "single")
    checked = subprocess.run([wsconf, "matrix", "check", "--matrix", str(tmp_path / "matrix"), "--ids",
                              str(tmp_path / "ids.txt")], capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0 and checked.stdout.count("\n| 1.") == len(versions), checked.stdout + checked.stderr
