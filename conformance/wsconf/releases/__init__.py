"""The suite across @mastra/core releases: the matrix of every stable release (incremental per
case), the cases' `versions` ranges taken from it, and BEHAVIOUR-CHANGES.md.

May import: everything below the session, and the session's expectations. Installing one release's
bridge is the adapters' (adapters/release_install.py): a `mastra@<version>` adapter needs it.
"""
