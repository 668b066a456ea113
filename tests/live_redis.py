"""A real `redis-server` on 127.0.0.1 (a free port) for the tests that need Redis: the
gateway's replicas (tests/server/test_server_redis.py) and processes
(tests/server/test_server_processes.py), through the `redis_server` fixture of
tests/conftest.py."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """`redis-server` on 127.0.0.1 without persistence, its files in `directory`."""

    def __init__(self, directory: Path, port: int | None = None) -> None:
        executable = shutil.which("redis-server")
        if executable is None:
            pytest.fail(
                "redis-server is not on PATH: these tests need a real Redis "
                "(Debian package redis-server; scripts/setup.sh installs it)", pytrace=False,
            )
        self.executable = executable
        self.directory = directory
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.start()
        self.client = redis.Redis(port=self.port, decode_responses=True)

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.executable, "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        probe = redis.Redis(port=self.port, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        try:
            while True:
                try:
                    probe.ping()
                    return
                except redis.ConnectionError:
                    if self.process.poll() is not None or time.monotonic() > deadline:
                        self.stop()
                        output = self.process.stdout.read().decode(errors="replace")
                        pytest.fail(f"redis-server did not start:\n{output}", pytrace=False)
                    time.sleep(0.02)
        finally:
            probe.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process.stdout.close()
