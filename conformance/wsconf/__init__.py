"""wsconf: the conformance harness for the Mastra workspace tools."""
__version__ = "0.1.0"
