"""One run of the suite as a pytest session: the plugin that turns cases into items, the run's
header (what is judged), the port's configuration and the run's options checked, what is hidden
from a confined implementation, its expected failures, the run's fresh cases, and why a run fails
beyond its cases (nothing tested, files changed outside it).

May import: spec, isolation, results, adapters, judge.
"""
