"""What people read from saved results: the conformance table, the HTML report and the report site,
and the differences between two implementations.

May import: everything below the session, and the session's expectations.
"""
