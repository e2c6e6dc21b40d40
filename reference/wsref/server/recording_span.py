"""Capability tool_tracing (spec/protocol.md `call`): the recording parent span a call's context gets, so
the child spans a tool starts come back with the Result as plain records, in the order they were created."""
from __future__ import annotations

from ..errors import js_name


class RecordingSpan:
    """createChildSpan records {type, name, input, attributes}; the child's end/error add `end` /
    `error` to its record (a second close sets closedAgain)."""

    def __init__(self, records: list, record: dict | None = None):
        self.records = records
        self.record = record
        self.children: list = []

    def create_child_span(self, options: dict) -> "RecordingSpan":
        record = _defined({k: options.get(k) for k in ("type", "name", "input", "attributes")})
        self.records.append(record)
        return _child(record)

    def _close(self, kind: str, value: dict) -> None:
        if "end" in self.record or "error" in self.record:
            self.record["closedAgain"] = True
        else:
            self.record[kind] = value
        if self.children:
            self.record["children"] = self.children

    def end(self, options: dict) -> None:
        self._close("end", _defined({"output": options.get("output"), "attributes": options.get("attributes")}))

    def error(self, options: dict) -> None:
        err = options.get("error")
        message = getattr(err, "message", None) or str(err)
        self._close("error", _defined({"error": {"name": js_name(err), "message": message},
                                       "attributes": options.get("attributes")}))


def _defined(value):
    """A record as JSON shows the upstream's objects: an undefined (None) property is left out."""
    if isinstance(value, dict):
        return {k: _defined(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_defined(v) for v in value]
    return value


def _child(record: dict) -> RecordingSpan:
    child = RecordingSpan([], record)
    child.records = child.children  # the child's own children go under its record
    return child
