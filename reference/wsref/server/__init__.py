"""The wire server: wsref behind spec/protocol.md, with the named host functions, providers and
search objects that protocol defines. A harness concept, kept out of the library core."""
