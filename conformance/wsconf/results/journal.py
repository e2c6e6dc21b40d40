"""The results file (JSON lines) and the JUnit XML, written as each case finishes.

An interrupted run (Ctrl-C, a CI timeout's SIGTERM, even SIGKILL) keeps every case that finished:
each record is flushed as it comes, and the XML is kept well-formed after every case by writing
its closing tags and stepping back over them for the next case. pytest's own --junitxml writer
replaces the XML with its full version when the run ends normally.

Only the harness writes the results: it keeps its own copy of every line, and when the run ends
it checks the file still holds exactly those (else rewrites it from its copy and says so), then
adds the last line, {"end": {...}}: the counts, and the sha256 of every byte before it
(records.py refuses a file where that does not hold)."""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_TAIL = b"</testsuite>\n</testsuites>\n"
_FAILED = {"failed": "failure", "xpass": "failure", "error": "error"}


def _clean(text: str) -> str:
    """Characters XML cannot hold (control characters, lone surrogates) as escapes."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _xml(text: str) -> str:
    return escape(_clean(text))


def _attr(text: str) -> str:
    return quoteattr(_clean(text))


def end_line(lines: list[bytes], end: dict) -> bytes:
    """The last line of a results file: `end` with the sha256 of the lines before it."""
    digest = hashlib.sha256()
    for line in lines:
        digest.update(line)
    return json.dumps({"end": {**end, "sha256": digest.hexdigest()}}).encode() + b"\n"


def write_results(path: Path, run: dict | None, records, end: dict) -> None:
    """A whole results file at once (the release matrix's merged one): header, records, end line;
    replaced atomically."""
    lines = ([json.dumps({"run": run}).encode() + b"\n"] if run is not None else [])
    lines += [json.dumps(record).encode() + b"\n" for record in records]  # ASCII escapes: lone surrogates
    tmp = Path(f"{path}.tmp-{os.getpid()}")
    tmp.write_bytes(b"".join(lines) + end_line(lines, end))
    tmp.replace(path)


class Journal:
    def __init__(self, results: str | None, junit: str | None):
        self.results = self.junit = None
        self.path = Path(results) if results else None
        self.lines: list[bytes] = []   # every line the harness wrote, to check and restore the file at the end
        if results:
            Path(results).parent.mkdir(parents=True, exist_ok=True)
            self.results = open(results, "wb")
        if junit:
            Path(junit).parent.mkdir(parents=True, exist_ok=True)
            self.junit = open(junit, "w+b")
            self.junit.write(b'<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n<testsuite name="wsconf">\n' + _TAIL)
            self.junit.flush()

    def _write(self, item: dict) -> None:
        if self.results:
            line = json.dumps(item).encode() + b"\n"
            self.lines.append(line)
            self.results.write(line)
            self.results.flush()

    def header(self, run: dict) -> None:
        """What the run judges: the results file's first line."""
        self._write({"run": run})

    def add(self, record: dict, nodeid: str) -> None:
        self._write(record)
        if self.junit:
            path, _, name = nodeid.rpartition("::")
            case = (f'<testcase classname={_attr(path.replace("/", "."))} name={_attr(name)} '
                    f'time="{record.get("duration", 0):.3f}"')
            tag = _FAILED.get(record["outcome"])
            message = record.get("message") or ""
            if tag:
                case += f"><{tag} message={_attr(message.splitlines()[0] if message else record['outcome'])}>{_xml(message)}</{tag}></testcase>\n"
            elif record["outcome"] in ("unsupported", "xfail"):
                case += f"><skipped message={_attr(record['outcome'] + ': ' + message)}/></testcase>\n"
            else:
                case += "/>\n"
            self.junit.seek(-len(_TAIL), os.SEEK_END)
            self.junit.write(case.encode("utf-8") + _TAIL)
            self.junit.truncate()
            self.junit.flush()

    def finish(self, end: dict) -> str | None:
        """The end line, after checking the file holds what the harness wrote: when it does not
        (something else wrote it during the run), it is rewritten from the harness's copy and the
        sentence saying so is returned."""
        if not self.results:
            return None
        said = None
        self.results.flush()
        try:
            on_disk = self.path.read_bytes()
        except OSError:
            on_disk = None
        if on_disk != b"".join(self.lines):
            said = (f"the results file {self.path} was changed during the run by something other than the "
                    "harness: rewritten from the harness's own copy")
            end = {**end, "rewritten": said}
            self.results.close()
            tmp = Path(f"{self.path}.tmp-{os.getpid()}")
            tmp.write_bytes(b"".join(self.lines))
            tmp.replace(self.path)
            self.results = open(self.path, "ab")
        self.results.write(end_line(self.lines, end))
        self.results.flush()
        return said

    def close(self) -> None:
        for fh in (self.results, self.junit):
            if fh:
                fh.close()
        self.results = self.junit = None
