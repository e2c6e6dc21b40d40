"""Whether an implementation's filesystem honours the LocalFilesystem options a case passes.

A provider declares the options it maps (hello `filesystemOptions`, spec/protocol.md): an option it
has no equivalent of (readOnly, allowedPaths on a provider over a sandbox) makes the case
unsupported, naming the option, rather than run with the option dropped or fail on it.
"""
from __future__ import annotations

import json


def unhonoured(workspace: dict | None, honoured: dict[str, object] | None) -> list[str]:
    """The `workspace.filesystem` options (as `key` or `key = value`) the declaration leaves out."""
    options = (workspace or {}).get("filesystem")
    if honoured is None or not isinstance(options, dict) or "$fn" in options:
        return []  # every option honoured; no filesystem; a resolver's options are its own
    out = []
    for key, value in options.items():
        accepted = honoured.get(key)
        if accepted is True:
            continue
        if accepted is None:
            out.append(key)
        elif not any(type(value) is type(v) and value == v for v in accepted):
            out.append(f"{key} = {json.dumps(value)}")
    return out
