"""How an implementation is reached: the Adapter interface (base.py), the shape of every answer
(answers.py), the reference in process, any program speaking spec/protocol.md as a child process
(confined by default), the upstream bridge (its install, and its
install at an older release for `mastra@<version>`), the provider kit with its local servers, and
the names a user gives them (registry.py).

May import: spec, isolation. The harness above talks to an implementation only through these.
"""
