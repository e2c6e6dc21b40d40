"""Running one case against one adapter and judging what came back: the steps in order, waits,
every answer compared whole with its expectation (verdict.py), mismatches made readable.

May import: spec, isolation, adapters. Never the session, the reports or the releases: a case is
judged the same whoever asked for it.
"""
from .runner import (
    ERROR,
    FAILED,
    NOT_APPLICABLE,
    PASSED,
    UNSUPPORTED,
    CaseResult,
    run_case,
)

__all__ = ["ERROR", "FAILED", "NOT_APPLICABLE", "PASSED", "UNSUPPORTED", "CaseResult", "run_case"]
