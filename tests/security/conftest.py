"""Fixtures of the security tests: the host-side bait (see bait.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from bait import CANARY_ENV, CANARY_VALUE, Canary, Listener


@pytest.fixture(scope="module")
def canary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Canary]:
    """A canary secret planted in the host's environment and in a host file."""
    directory = tmp_path_factory.mktemp("canary")
    path = directory / "secret.txt"
    path.write_text(CANARY_VALUE)
    previous = os.environ.get(CANARY_ENV)
    os.environ[CANARY_ENV] = CANARY_VALUE
    try:
        yield Canary(CANARY_ENV, CANARY_VALUE, path)
    finally:
        if previous is None:
            os.environ.pop(CANARY_ENV, None)
        else:
            os.environ[CANARY_ENV] = previous


@pytest.fixture(scope="module")
def listener() -> Iterator[Listener]:
    """A TCP listener on 127.0.0.1 that no guest may ever reach."""
    bait = Listener()
    try:
        yield bait
    finally:
        bait.sock.close()
