"""wsref: a Python reference implementation of the Mastra workspace tools (@mastra/core 1.71.0)."""
from .local_filesystem import LocalFilesystem
from .tools import create_workspace_tools
from .workspace import Workspace

__version__ = "0.1.0"
UPSTREAM_VERSION = "1.71.0"

__all__ = ["LocalFilesystem", "Workspace", "create_workspace_tools", "__version__", "UPSTREAM_VERSION"]
