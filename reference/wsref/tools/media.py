"""Media results (upstream `tools/media.ts`): a result the model is shown as a media part (read_file's images, PDFs, ...)."""
from __future__ import annotations

from typing import Any


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
