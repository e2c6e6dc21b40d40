"""What a run judged: the implementation, its protocol, capabilities, tools and dependencies, the
expectations in force, the spec, and the selection. Printed before the first case, stored as the
first line of the results file and as JUnit properties."""
from __future__ import annotations

from pathlib import Path

from .. import __version__
from ..spec.tool_names import family_of

SPEC_UPSTREAM = "@mastra/core 1.71.0"  # the release whose behaviour the cases pin


def describe_run(adapter, adapter_spec: str, implemented: frozenset[str] | None, tools_source: str,
                 expectations_file: Path | None, expectations_count: int, spec_root: Path) -> dict:
    return {
        "implementation": adapter.name,
        "version": adapter.version,
        "adapter": adapter_spec,
        "protocol": adapter.protocol_version,
        "capabilities": sorted(adapter.capabilities),
        "tools": None if implemented is None else sorted(family_of(t) for t in implemented),
        "tools_source": tools_source,
        "dependencies": dict(sorted(adapter.dependencies.items())),
        "filesystem_options": _options(getattr(adapter, "filesystem_options", None)),
        "expectations": str(expectations_file) if expectations_file else None,
        "expectations_count": expectations_count,
        "spec": str(spec_root),
        "spec_pins": SPEC_UPSTREAM,
        "wsconf": __version__,
    }


def _options(declared: dict | None) -> list[str] | None:
    """The LocalFilesystem options the implementation honours, as `name` or `name (values)`."""
    if declared is None:
        return None
    return [k if v is True else f"{k} ({', '.join(str(x).lower() if isinstance(x, bool) else str(x) for x in v)})"
            for k, v in sorted(declared.items())]


def header_lines(run: dict, selected: int | None = None) -> list[str]:
    tools = "all (none declared)" if run["tools"] is None else f"{', '.join(run['tools'])} ({run['tools_source']})"
    deps = ", ".join(f"{k} {v}" for k, v in run["dependencies"].items()) or "(none reported)"
    expectations = (f"{run['expectations']} ({run['expectations_count']} entries)" if run["expectations"]
                    else f"none: {run.get('expectations_missing') or 'no file'} (every failure counts)")
    lines = [
        f"implementation: {run['implementation']} {run['version']}  (adapter {run['adapter']}, protocol {run['protocol']})",
        f"capabilities:   {', '.join(run['capabilities']) or '(none)'}",
        f"tools:          {tools}",
        f"dependencies:   {deps}",
        *([f"fs options:     {', '.join(run['filesystem_options']) or '(none)'} (any other is unsupported)"]
          if run.get("filesystem_options") is not None else []),
        f"expectations:   {expectations}",
        f"spec:           {run['spec']} (pins {run['spec_pins']}; wsconf {run['wsconf']})",
    ]
    if run.get("confinement"):
        lines.append(f"confinement:    {run['confinement']}")
    if selected is not None:
        lines.append(f"cases selected: {selected}")
    return lines
