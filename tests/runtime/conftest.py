"""Fixtures shared by the runtime tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import sandbox_wasm as sw

DATA = "python-data"


@pytest.fixture(scope="module")
def data_box() -> Iterator[sw.Sandbox]:
    """A Sandbox on the data runtime, loaded (and if needed compiled) before the first test."""
    with sw.Sandbox(runtime=DATA) as box:
        box.warm_up()
        yield box
