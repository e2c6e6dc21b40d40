"""`mastra-sandboxfs` and `mastra-code`: the upstream bridge on Mastra Code's SandboxFilesystem.

On the provider kit (provider_kit.py), a provider without a server: @mastra/code-sdk's
SandboxFilesystem (its file only, tools/mastra-bridge/vendor.json) over @mastra/core's LocalSandbox
on the case's root, sharing the case's sandbox with the workspace as Mastra Code does
(tools/mastra-bridge/providers/sandboxfs.mjs). `mastra-code` is the same provider with every
workspace built under Mastra Code's tool names (view, string_replace_lsp, find_files,
search_content ...), so the tool-level cases show what a Mastra Code user meets.
"""
from __future__ import annotations

from .provider_kit import ProviderAdapter

CODE_SDK = "@mastra/code-sdk"


class SandboxFsAdapter(ProviderAdapter):
    provider = "sandboxfs"
    server_class = None
    vendored = (CODE_SDK,)
    # Every file operation spawns two to four shell commands (readlink -f, stat, base64 ...): an agent
    # run of 201 reads takes tens of seconds on a loaded 2-core machine, past the default 30 s.
    min_timeout = 120.0


class MastraCodeAdapter(SandboxFsAdapter):
    def bridge_env(self, server) -> dict[str, str]:
        return {"WSCONF_BRIDGE_TOOL_NAMES": "mastra-code"}
