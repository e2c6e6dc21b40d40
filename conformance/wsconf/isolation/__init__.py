"""Keeping the implementation in its place: each case's folder with its canaries and tokens, the
fingerprint of everything around the root, the processes a case leaves behind (the harness is a
child subreaper), and the caps on what an implementation may send.

May import: spec. Nothing here knows what a case expects; judge/ decides what a finding means.
"""
