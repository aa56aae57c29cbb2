"""A local S3-compatible server (moto in server mode) for tests of log folders on object storage.

Inspect writes and lists logs on `s3://` through s3fs; pointing the AWS SDK at this server
(`AWS_ENDPOINT_URL`) makes `inspect eval --log-dir s3://bucket/...`, `inspect eval-set` and
`polar-report s3://bucket/...` talk to it, on 127.0.0.1 only, with throwaway credentials.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def local_s3(
    monkeypatch: pytest.MonkeyPatch, bucket: str = "team-logs"
) -> Iterator[dict[str, str]]:
    """Start a moto S3 server with one bucket; yield the environment that points at it."""
    server_module = pytest.importorskip("moto.server")
    boto3 = pytest.importorskip("boto3")
    port = _free_port()
    server = server_module.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    env = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
    }
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    _forget_filesystems()  # an s3fs instance cached by an earlier test points at its server
    try:
        boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"]).create_bucket(Bucket=bucket)
        yield env
    finally:
        server.stop()
        _forget_filesystems()


def _forget_filesystems() -> None:
    s3fs = pytest.importorskip("s3fs")
    s3fs.S3FileSystem.clear_instance_cache()
