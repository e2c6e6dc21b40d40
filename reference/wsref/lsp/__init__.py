"""The workspace's LSP integration (upstream `src/workspace/lsp/`): language servers started
through the sandbox's process manager, whose diagnostics write_file and edit_file append."""
from .manager import LSPManager
from .servers import find_project_root

__all__ = ["LSPManager", "find_project_root"]
