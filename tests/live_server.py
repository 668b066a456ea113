"""A real gateway under uvicorn on 127.0.0.1 (a free port) in a background thread, for the
server tests."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator

import httpx
import uvicorn

import sandbox_wasm as sw
from sandbox_wasm.server.http.app import create_app
from sandbox_wasm.server.settings import GatewaySettings


class LiveServer:
    """uvicorn serving the gateway app in a background thread, with an httpx client."""

    def __init__(self, settings: GatewaySettings, sandbox: sw.Sandbox) -> None:
        self.settings = settings
        self.app = create_app(settings, sandbox=sandbox)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=0, log_level="warning",
            timeout_graceful_shutdown=5,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        port = self._server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.client = httpx.Client(base_url=self.url, timeout=30)

    def stop(self) -> None:
        self.client.close()
        self._server.should_exit = True
        self._thread.join(timeout=30)

    def wait_until(self, predicate: Callable[[dict], bool], timeout: float = 10) -> dict:
        """Poll /healthz until `predicate(health)` holds."""
        deadline = time.monotonic() + timeout
        while True:
            health = self.client.get("/healthz").json()
            if predicate(health) or time.monotonic() > deadline:
                return health
            time.sleep(0.02)


def serve(sandbox: sw.Sandbox, **settings: object) -> Iterator[LiveServer]:
    """A LiveServer with these settings for a fixture to yield from; stopped afterwards."""
    server = LiveServer(GatewaySettings(**settings), sandbox)  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()


def error_of(response: httpx.Response) -> dict:
    """The gateway's JSON error object of a refusal."""
    assert response.headers["content-type"].startswith("application/json")
    return response.json()["error"]  # type: ignore[no-any-return]


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Wait until `process` accepts connections on 127.0.0.1:`port` (failing with its
    stderr if it exits first)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None:
                why = process.stderr.read().decode() if process.stderr else ""
                raise AssertionError(f"exited with {process.returncode} {why}") from None
            assert time.monotonic() < deadline, "the server did not start listening"
            time.sleep(0.1)
