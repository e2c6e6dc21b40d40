"""Keeping the implementation in its place: confining it where the kernel allows (its own user, mount
and pid namespaces; everything but its case folders read-only, the spec, expectations and results
out of sight), each case's folder with its canaries and tokens, the fingerprint of everything
around the root, the mounts and processes a case leaves behind (the harness is a child subreaper),
what the run depends on outside its folders, and the caps on what an implementation may send.

May import: spec. Nothing here knows what a case expects; judge/ decides what a finding means.
"""
