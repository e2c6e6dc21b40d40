"""wsref: a Python reference implementation of the Mastra workspace tools (@mastra/core 1.71.0).

The package mirrors the upstream's packages/core/src/workspace/ (ARCHITECTURE.md has the map);
js/ holds what the upstream gets from Node, V8 and npm packages; server/ speaks the wire protocol.
"""
from .filesystem import LocalFilesystem
from .sandbox import LocalSandbox
from .tools import create_workspace_tools
from .workspace import Workspace

__version__ = "0.1.0"
UPSTREAM_VERSION = "1.71.0"

__all__ = ["LocalFilesystem", "LocalSandbox", "Workspace", "create_workspace_tools", "__version__", "UPSTREAM_VERSION"]
