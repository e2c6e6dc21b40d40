"""Agent signals: a created signal, its XML markup (what the model is shown) and its data part.

Upstream: @mastra/core src/agent/signals.ts (1.71.0), only the text-contents path a state signal
takes: createSignal gives it a random id (crypto.randomUUID()) and createdAt (now); toLLMMessage
is a user message whose text is signalToXmlMarkup(tagName, attributes, contents), the contents
XML-escaped; toDataPart the `data-signal` chunk the stream carries.
"""
from __future__ import annotations

import re
import uuid
from datetime import datetime, timezone

_XML_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


def _escape_xml(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _assert_xml_name(name: str, label: str) -> None:
    if not _XML_NAME.match(name):
        raise ValueError(f"Invalid signal XML {label}: {name}")


def _js_string(value) -> str:
    """String(value) for an attribute: true/false, integral numbers without '.0'."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def signal_attributes_to_xml(attributes: dict | None) -> str:
    if not attributes:
        return ""
    pieces = []
    for key, value in attributes.items():
        if value is None:
            continue
        _assert_xml_name(key, "attribute name")
        pieces.append(f'{key}="{_escape_xml(_js_string(value)).replace(chr(34), "&quot;")}"')
    return f" {' '.join(pieces)}" if pieces else ""


def signal_to_xml_markup(tag_name: str, attributes: dict | None, contents: str | None) -> str:
    _assert_xml_name(tag_name, "tag name")
    attrs = signal_attributes_to_xml(attributes)
    if not contents:
        return f"<{tag_name}{attrs} />"
    return f"<{tag_name}{attrs}>{_escape_xml(contents)}</{tag_name}>"


def _now_iso() -> str:
    now = datetime.now(timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def create_signal(*, type: str, tag_name: str, contents: str, attributes: dict | None = None,
                  metadata: dict | None = None) -> dict:
    """A created signal: {id, type, tagName, contents, createdAt, attributes?, metadata?}."""
    signal = {"id": str(uuid.uuid4()), "type": type, "tagName": tag_name, "contents": contents,
              "createdAt": _now_iso()}
    if attributes is not None:
        signal["attributes"] = attributes
    if metadata is not None:
        signal["metadata"] = metadata
    return signal


def signal_to_llm_text(signal: dict) -> str:
    """The text of the user message toLLMMessage makes of a text-only, non-user signal."""
    return signal_to_xml_markup(signal["tagName"], signal.get("attributes"), signal["contents"])


def signal_to_data_part(signal: dict) -> dict:
    return {"type": "data-user-message" if signal["type"] == "user" else "data-signal", "data": dict(signal),
            "transient": True}
