"""Snapshot tests (syrupy): outputs too large to write by hand, over fixtures/repo.

Snapshots are generated from the reference, reviewed, and committed; any adapter is checked
against them. Update them only when the spec changed: `wsconf snapshots --update` (reference
only), then review the diff like any other spec change.
"""
