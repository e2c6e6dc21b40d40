"""`mastra-s3`: the upstream bridge on @mastra/s3's S3Filesystem, against a local moto S3 server.

On the provider kit (provider_kit.py): moto runs as `python -m moto.server` on 127.0.0.1, data in
memory; the bridge runs providers/s3.mjs against it (spec/protocol.md, "Runs on another filesystem
provider").
"""
from __future__ import annotations

import os
import sys

from .provider_kit import LocalServer, ProviderAdapter


class MotoServer(LocalServer):
    name = "moto S3 server"

    def command(self, port: int) -> list[str]:
        return [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)]

    def prepare(self) -> None:
        # moto does not check signatures: a plain PUT creates the bucket (us-east-1, no body).
        self.request("PUT", f"/{self.bucket}")


class S3Adapter(ProviderAdapter):
    provider = "s3"
    package = "@mastra/s3"
    server_class = MotoServer

    def bridge_env(self, server: LocalServer) -> dict[str, str]:
        return {"WSCONF_S3_ENDPOINT": server.endpoint, "WSCONF_S3_BUCKET": server.bucket, "WSCONF_S3_REGION": "us-east-1",
                # the AWS SDK must not pick up a real profile or instance credentials
                "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": os.devnull,
                "AWS_SHARED_CREDENTIALS_FILE": os.devnull}
