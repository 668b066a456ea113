"""Host-side bait for the attack tests: a canary secret in the environment and in a file, and
a TCP listener that must never see a connection."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path

CANARY_ENV = "SANDBOX_WASM_CANARY_SECRET"
# Only ever compared against results; never embedded in guest code.
CANARY_VALUE = "canary-5b1e0c-if-you-can-read-this-the-sandbox-leaked"


@dataclass(frozen=True)
class Canary:
    """A planted secret: an environment variable and a file holding the same value."""

    env: str
    value: str
    file: Path

    @property
    def directory(self) -> Path:
        return self.file.parent

    def state(self) -> tuple[str | None, bytes, int, list[str]]:
        """Everything an attack could change: env value, file bytes, mtime, dir listing."""
        return (
            os.environ.get(self.env),
            self.file.read_bytes(),
            self.file.stat().st_mtime_ns,
            sorted(os.listdir(self.directory)),
        )

    def assert_not_in(self, text: str) -> None:
        assert self.value not in text, "the canary secret leaked into the result"



class Listener:
    """A non-blocking TCP listener on 127.0.0.1; any accepted connection is a breach."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.setblocking(False)
        self.port = int(self.sock.getsockname()[1])

    def connections(self) -> int:
        count = 0
        while True:
            try:
                conn, _ = self.sock.accept()
            except BlockingIOError:
                return count
            conn.close()
            count += 1
