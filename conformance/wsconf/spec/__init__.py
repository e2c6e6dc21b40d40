"""The spec as data: the cases, claims and capabilities read from YAML and validated, with every
problem named by file, line and key; the placeholders a case may write (`{{pid}}`), the npm ranges
of its `versions`, the tools' two names, where the bundled data lives, and the trace of the
upstream's own tests to the cases.

The lowest room: it imports nothing else of wsconf.
"""
from .loader import (
           DEFAULT_SPEC_DIR,
           Case,
           Claim,
           Spec,
           SpecError,
           load_spec,
           quote_problems,
)
from .tool_names import family_of, tool_id

__all__ = ["DEFAULT_SPEC_DIR", "Case", "Claim", "Spec", "SpecError", "family_of", "load_spec", "quote_problems",
           "tool_id"]
