"""Shared fixtures: real sandboxes on the real pinned runtime (nothing is mocked)."""

from __future__ import annotations

import pytest

import sandbox_wasm as sw


@pytest.fixture(scope="session")
def sandbox() -> sw.Sandbox:
    """The default sandbox: strict policy, default limits."""
    box = sw.Sandbox()
    box.warm_up()
    return box


@pytest.fixture(scope="session")
def open_sandbox() -> sw.Sandbox:
    """The audit in report-only mode, so that the WebAssembly boundary alone is tested."""
    box = sw.Sandbox(policy=sw.REPORT_ONLY_POLICY)
    box.warm_up()
    return box
