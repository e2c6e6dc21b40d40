"""The results file (JSON lines) and the JUnit XML, written as each case finishes.

An interrupted run (Ctrl-C, a CI timeout's SIGTERM, even SIGKILL) keeps every case that finished:
each record is flushed as it comes, and the XML is kept well-formed after every case by writing
its closing tags and stepping back over them for the next case. pytest's own --junitxml writer
replaces the XML with its full version when the run ends normally."""
from __future__ import annotations

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


class Journal:
    def __init__(self, results: str | None, junit: str | None):
        self.results = self.junit = None
        if results:
            Path(results).parent.mkdir(parents=True, exist_ok=True)
            self.results = open(results, "w", encoding="utf-8")
        if junit:
            Path(junit).parent.mkdir(parents=True, exist_ok=True)
            self.junit = open(junit, "w+b")
            self.junit.write(b'<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n<testsuite name="wsconf">\n' + _TAIL)
            self.junit.flush()

    def header(self, run: dict) -> None:
        """What the run judges: the results file's first line."""
        if self.results:
            self.results.write(json.dumps({"run": run}) + "\n")
            self.results.flush()

    def add(self, record: dict, nodeid: str) -> None:
        if self.results:
            self.results.write(json.dumps(record) + "\n")
            self.results.flush()
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

    def close(self) -> None:
        for fh in (self.results, self.junit):
            if fh:
                fh.close()
        self.results = self.junit = None
