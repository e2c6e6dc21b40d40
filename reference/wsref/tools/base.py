"""What a tool is: an id, a description, an input schema, execute, and what the model is shown."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class Tool:
    id: str
    description: str
    input_schema: dict
    execute: Callable[[dict, "ToolContext"], Any]
    to_model_output: Callable[[Any], Any] | None = None
    require_approval: bool = False
    # Fields the upstream wraps in z.preprocess(coerceNumericString): "10" is taken as 10.
    coerce_numeric: tuple[str, ...] = ()
    # The input schema the model is shown, when it differs from the one execute validates against.
    shown_schema: dict | None = None


@dataclass
class ToolContext:
    workspace: Any
    extra: dict = field(default_factory=dict)


def media_result(text: str, media_type: str, data: str) -> dict:
    return {"__workspaceMedia": True, "text": text, "mediaType": media_type, "data": data}


def is_media_result(value: Any) -> bool:
    return (isinstance(value, dict) and value.get("__workspaceMedia") is True
            and all(isinstance(value.get(k), str) for k in ("text", "mediaType", "data")))


def media_to_model_output(output: Any):
    if is_media_result(output):
        return {"type": "content", "value": [
            {"type": "text", "text": output["text"]},
            {"type": "media", "data": output["data"], "mediaType": output["mediaType"]},
        ]}
    return None
