"""The results file (one JSON record per case, after a line describing the run) and the JUnit XML:
written as each case ends, and read back by the reports and the release matrix; and what "by tool"
means wherever outcomes are counted per tool (records.by_tool).

May import: spec.
"""
