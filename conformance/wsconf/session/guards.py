"""A run's options checked before anything is started or written: a bad one is a usage error naming
the option (`wsconf run` exits 2), and no file a previous run wrote is touched first."""
from __future__ import annotations

import argparse
import math
import os
from pathlib import Path


def positive_seconds(text) -> float:
    """A timeout: a finite number of seconds above 0 (not nan, inf, 0 or -5)."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"not a number of seconds above 0: {text!r}")
    return value


def check_options(config) -> None:
    """Raise pytest.UsageError for the first option that cannot work, naming it."""
    import pytest

    from ..adapters.registry import name_problem, runs_in_process
    get = config.getoption
    adapter = get("wsconf_adapter")
    problem = name_problem(adapter)
    if problem:
        raise pytest.UsageError(f"--wsconf-adapter {adapter!r}: {problem}")
    if get("wsconf_hermetic") and get("wsconf_unconfined"):
        raise pytest.UsageError("--hermetic (confined, or no run) and --unconfined contradict each other")
    if get("wsconf_hermetic") and runs_in_process(adapter):
        raise pytest.UsageError(f"--hermetic confines a subprocess implementation; {adapter!r} runs inside "
                                "the harness (use reference-protocol, mastra or cmd:...)")
    if get("wsconf_max_line") <= 0:
        raise pytest.UsageError("--wsconf-max-line must be above 0 bytes")
    expectations = get("wsconf_expectations")
    if expectations and not Path(expectations).is_dir():
        raise pytest.UsageError(f"--wsconf-expectations {expectations}: no such folder")
    outputs = {"--wsconf-results": get("wsconf_results"), "--junitxml": getattr(config.option, "xmlpath", None)}
    named = {option: os.path.realpath(path) for option, path in outputs.items() if path}
    if len(set(named.values())) < len(named):
        raise pytest.UsageError(f"--wsconf-results and --junitxml name the same file ({outputs['--wsconf-results']}): "
                                "one would overwrite the other")
    for option, path in named.items():
        if os.path.isdir(path):
            raise pytest.UsageError(f"{option} {outputs[option]}: is a folder, not a file")
        if expectations and Path(path).is_relative_to(os.path.realpath(expectations)):
            raise pytest.UsageError(f"{option} {outputs[option]}: is inside the expectations folder {expectations}")
