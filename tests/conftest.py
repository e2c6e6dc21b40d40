"""Shared helpers for the project's own tests."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "spec"
BRIDGE = REPO / "tools" / "mastra-bridge"


def bridge_missing_reason() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed: the @mastra/core bridge cannot run"
    if not (BRIDGE / "node_modules" / "@mastra" / "core").exists():
        return "tools/mastra-bridge/node_modules is missing: run `make setup` (npm ci)"
    return None


def run_suite(tmp_path: Path, adapter: str, *extra: str, spec: Path = SPEC,
              paths: list[str] | None = None) -> tuple[int, list[dict], str]:
    """Run the conformance suite (or some case folders of it) in a child pytest; return exit code,
    per-case records, output."""
    from wsconf.report import load_results
    results = tmp_path / f"{adapter.replace(':', '_').replace('/', '_')[:40]}.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *(paths or [str(spec / "cases")]), "-q", "-p", "no:cacheprovider",
         "--wsconf-adapter", adapter, "--wsconf-results", str(results), *extra],
        capture_output=True, text=True, cwd=REPO, timeout=600)
    records = load_results(results) if results.exists() else []
    return proc.returncode, records, proc.stdout + proc.stderr


@pytest.fixture
def mini_spec(tmp_path: Path):
    """A spec folder with the real claims, capabilities and schemas, and no cases yet."""
    root = tmp_path / "spec"
    (root / "cases" / "read_file").mkdir(parents=True)
    for name in ("claims.yaml", "capabilities.yaml"):
        shutil.copy(SPEC / name, root / name)
    shutil.copytree(SPEC / "schema", root / "schema")
    return root
