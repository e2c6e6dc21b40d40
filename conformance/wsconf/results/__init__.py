"""The results file (one JSON record per case, after a line describing the run) and the JUnit XML:
written as each case ends, and read back by the reports and the release matrix.

May import: spec.
"""
