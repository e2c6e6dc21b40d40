"""Mutation testing of the reference against the YAML cases: `python -m tools.mutation --help`."""
