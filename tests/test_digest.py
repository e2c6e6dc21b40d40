"""Results digests (results/digest.py): what the changelog and the site read of a results file, equal
to reading it whole, cached beside it and read again when it changes."""
from __future__ import annotations

import json

from wsconf.results.digest import PASSED_FINGERPRINT, from_results, load_digest
from wsconf.results.records import load_results


def _record(case_id, outcome, version="1.0.0", text="x", **extra):
    return {"id": case_id, "tool": "read_file", "tools": ["read_file"], "claims": ["c.one", "c.two"],
            "implementation": "impl", "version": version, "outcome": outcome,
            "message": "" if outcome == "passed" else "step 'read': the text differs\nmore", "duration": 0.1,
            "steps": [{"id": "read", "expected": {"text": "{{pid}} x"}, "actual": {"kind": "text", "value": text}}],
            **extra}


def _write(path, records, run=True):
    lines = ([json.dumps({"run": {"implementation": "impl", "version": "1.0.0"}})] if run else []) + \
        [json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_digest_says_what_reading_the_whole_file_says(tmp_path):
    records = [_record("a.pass", "passed"),
               # a value that looks like the head of a passing record: only a real head is taken for one
               _record("b.fail", "failed", version='1", "outcome": "passed", "x": "', text="12 y", harm="wrong_output"),
               _record("c.unsupported", "unsupported"), _record("d.weird\"id", "passed"),
               _record("e.same", "failed", text="4242 x")]
    path = _write(tmp_path / "r.jsonl", records)
    digest = load_digest(path, cache=False)
    assert digest.entries == from_results(load_results(path)).entries
    assert digest.entries["b.fail"].outcome == "failed" and digest.entries["b.fail"].harm == "wrong_output"
    assert digest.entries["a.pass"].fingerprint == digest.entries['d.weird"id'].fingerprint == PASSED_FINGERPRINT
    assert digest.entries["b.fail"].message == "step 'read': the text differs"
    # a pid where the expectation names one is not a difference; the rest of the text is
    assert digest.entries["e.same"].fingerprint != digest.entries["b.fail"].fingerprint
    assert digest.record("b.fail") == records[1] and digest.record("nope") is None
    assert (digest.implementation, digest.version) == ("impl", "1.0.0")


def test_the_cache_is_used_until_the_file_changes(tmp_path):
    path = _write(tmp_path / "r.jsonl", [_record("a", "passed")])
    first = load_digest(path)
    cache = tmp_path / "r.jsonl.digest.json"
    assert cache.is_file() and load_digest(path).entries == first.entries
    _write(path, [_record("a", "passed"), _record("b", "failed")])  # another size: read again
    assert set(load_digest(path).entries) == {"a", "b"}
    cache.write_text("not json")  # a cache written by something else: ignored and rewritten
    assert set(load_digest(path).entries) == {"a", "b"} and json.loads(cache.read_text())["entries"]


def test_results_without_a_run_line_are_named_by_their_first_record(tmp_path):
    digest = load_digest(_write(tmp_path / "r.jsonl", [_record("a", "passed", version="2.0.0")], run=False))
    assert (digest.implementation, digest.version) == ("impl", "2.0.0")
