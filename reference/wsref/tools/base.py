"""What a tool is: an id, a description, an input schema, execute, and what the model is shown.

Upstream this is createTool, outside workspace/ (core/src/tools); only what the workspace tools use."""
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


