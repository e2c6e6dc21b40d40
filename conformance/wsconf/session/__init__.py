"""One run of the suite as a pytest session: the plugin that turns cases into items, the run's
header (what is judged), the port's configuration, and its expected failures.

May import: spec, isolation, results, adapters, judge.
"""
