"""A results file read for reading across many of them (the release matrix's 64 files, the site):
per case only its outcome, harm, first message line and the fingerprint of its comparable outputs,
and the whole record fetched on demand by its offset in the file.

Parsing a matrix's results (a gigabyte of JSON) takes longer than building the site from them, so
the digest of a file is cached beside it (`<file>.digest.json`, keyed by the file's size and
modification time and by DIGEST_FORMAT); a file that changed is read again. The cache is JSON, never
pickle: a matrix folder may be shared, and loading it must not run anything.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .records import MATCHES, Results, ResultsError, outputs

DIGEST_FORMAT = 1  # raise when what a digest holds, or how the fingerprint is made, changes


@dataclass(frozen=True)
class Entry:
    outcome: str
    harm: str | None
    message: str          # the first line
    fingerprint: str      # of state(record): equal fingerprints, equal behaviour


def state(record: dict | None) -> tuple[str, list]:
    """What a case did, comparable across runs and releases: its outcome ("matches" for a pass) and
    its outputs (records.outputs); an adapter fault adds its kind, numbers generalised."""
    if record is None:
        return "absent", []
    outcome = "matches" if record["outcome"] == MATCHES else record["outcome"]
    steps = outputs(record)
    if record["outcome"] == "error":  # an adapter fault: no output to compare but the fault's kind
        steps = steps + [{"step": "fault", "actual": re.sub(r"\d+(\.\d+)?", "#", first_line(record))}]
    if record["outcome"] == "unsupported":
        steps = [{"step": "unsupported", "actual": record.get("message") or ""}]
    return outcome, steps


def first_line(record: dict) -> str:
    return (record.get("message") or "").split("\n", 1)[0]


PASSED_FINGERPRINT = "matches"  # every pass is the pinned behaviour: one fingerprint, nothing to compute


def _entry(record: dict) -> Entry:
    if record["outcome"] == MATCHES:
        return Entry(MATCHES, None, "", PASSED_FINGERPRINT)
    text = json.dumps(state(record), sort_keys=True, ensure_ascii=False, default=str)
    return Entry(record["outcome"], record.get("harm"), first_line(record)[:300],
                 hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16])


# A passing record's head as the journal writes it (json.dumps of its keys in this order): a JSON
# string cannot hold an unescaped quote, so nothing inside a value can look like the next key.
_STRING = r'"(?:[^"\\]|\\.)*"'
_STRINGS = rf"\[(?:{_STRING}(?:, {_STRING})*)?\]"
_PASSED_HEAD = re.compile(rf'\{{"id": ({_STRING}), "tool": {_STRING}, "tools": {_STRINGS}, "claims": {_STRINGS}, '
                          rf'"implementation": {_STRING}, "version": {_STRING}, "outcome": "passed", '.encode())


def _passed_id(line: bytes) -> str | None:
    """The id of a passing record, without parsing the rest of it (the 5 MiB outputs of some cases)."""
    head = _PASSED_HEAD.match(line)
    return json.loads(head.group(1)) if head else None


@dataclass
class Digest:
    path: Path | None
    run: dict | None
    entries: dict[str, Entry] = field(default_factory=dict)
    offsets: dict[str, int] = field(default_factory=dict)
    _records: dict[str, dict] | None = None  # when made from records in memory

    @property
    def implementation(self) -> str:
        return (self.run or {}).get("implementation") or "?"

    @property
    def version(self) -> str:
        return str((self.run or {}).get("version") or "?")

    def record(self, case_id: str) -> dict | None:
        """The whole record of a case, read from the file at its offset."""
        if self._records is not None:
            return self._records.get(case_id)
        offset = self.offsets.get(case_id)
        if offset is None or self.path is None:
            return None
        with open(self.path, "rb") as fh:
            fh.seek(offset)
            return json.loads(fh.readline())


def from_results(results: Results) -> Digest:
    """The digest of results already in memory (tests, a changelog from a few files)."""
    run = results.run or {"implementation": results.implementation, "version": results.version}
    return Digest(results.path, run, {cid: _entry(r) for cid, r in results.records.items()},
                  _records=results.records)


def load_digest(path: str | Path, cache: bool = True) -> Digest:
    """The digest of a results file, from its cache when the file has not changed since."""
    path = Path(path)
    stat = path.stat()
    key = [DIGEST_FORMAT, stat.st_size, stat.st_mtime_ns]
    cached = path.with_name(path.name + ".digest.json")
    if cache and cached.is_file():
        try:
            data = json.loads(cached.read_text(encoding="utf-8"))
            if data.get("key") == key:
                return Digest(path, data["run"], {cid: Entry(*e) for cid, e in data["entries"].items()},
                              data["offsets"])
        except (ValueError, KeyError, TypeError):
            pass  # a cache written by something else: read the file again
    digest = Digest(path, None)
    before, ended = hashlib.sha256(), False  # the lines before the end line, which vouches for them
    with open(path, "rb") as fh:
        offset = 0
        for number, line in enumerate(fh, 1):
            if ended and line.strip():
                raise ResultsError(f"{path}:{number}: a line after the end line: the file was changed after the run")
            passed = _passed_id(line)
            if passed is not None:
                digest.entries[passed] = Entry(MATCHES, None, "", PASSED_FINGERPRINT)
                digest.offsets[passed] = offset
            elif line.strip():
                item = json.loads(line)
                if "end" in item and "id" not in item:
                    end = item["end"] if isinstance(item["end"], dict) else {}  # any other shape vouches for nothing
                    if before.hexdigest() != end.get("sha256"):
                        raise ResultsError(f"{path}:{number}: the sha256 in the end line does not match the lines "
                                           "before it: the file was changed after the run")
                    ended = True
                    continue
                if "run" in item and "id" not in item:
                    digest.run = item["run"]
                else:
                    digest.entries[item["id"]] = _entry(item)
                    digest.offsets[item["id"]] = offset
            before.update(line)
            offset += len(line)
    if digest.run is None and digest.offsets:  # results without a run line: named by their first record
        first = digest.record(next(iter(digest.offsets)))
        digest.run = {"implementation": first.get("implementation") or "?", "version": first.get("version") or "?"}
    if cache:
        data = {"key": key, "run": digest.run, "offsets": digest.offsets,
                "entries": {cid: [e.outcome, e.harm, e.message, e.fingerprint] for cid, e in digest.entries.items()}}
        try:
            cached.write_text(json.dumps(data), encoding="utf-8")
        except OSError:
            pass  # a read-only folder: the digest is only slower next time
    return digest
