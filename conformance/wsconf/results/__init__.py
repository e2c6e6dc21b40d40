"""The results file: written as each case ends, only by the harness, closed by a last line holding
the counts and the sha256 of everything before it (journal.py); read back, checked, and made
comparable across runs (records.py).

May import: spec. Beside isolation/, below everything that reads or writes a run's results.
"""
