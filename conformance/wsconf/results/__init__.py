"""The results file (one JSON record per case, after a line describing the run) and the JUnit XML:
written as each case ends, only by the harness, closed by a last line holding the counts and the
sha256 of everything before it (journal.py); read back, checked, and made comparable across runs;
and what "by tool" means wherever outcomes are counted per tool (records.py, records.by_tool).

May import: spec. Beside isolation/, below everything that reads or writes a run's results.
"""
