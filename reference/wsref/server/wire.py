"""Values on the wire (spec/protocol.md): bytes and dates tagged as {"$bytes": ...} and {"$date": ...}; an error as
{name, message, code}."""
from __future__ import annotations

import base64
from dataclasses import asdict
from datetime import datetime

from ..errors import js_name
from ..filesystem.local_filesystem import FileStat, iso


def to_json(value):
    """Plain data for a Result: bytes and dates tagged the way the protocol tags them."""
    if isinstance(value, (bytes, bytearray)):
        return {"$bytes": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, datetime):
        return {"$date": iso(value)}
    if isinstance(value, FileStat):
        return {k: to_json(v) for k, v in asdict(value).items() if v is not None}
    if isinstance(value, BaseException):  # as the bridge's toWire shows an Error
        return {"name": js_name(value), "message": getattr(value, "message", None) or str(value),
                "code": getattr(value, "code", None)}
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def from_json(value):
    if isinstance(value, dict) and set(value) == {"$bytes"} and isinstance(value["$bytes"], str):
        return base64.b64decode(value["$bytes"])
    if isinstance(value, dict) and set(value) == {"$date"} and isinstance(value["$date"], str):
        return datetime.fromisoformat(value["$date"].replace("Z", "+00:00"))  # new Date(iso)
    if isinstance(value, dict):
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value
