"""Shared fixtures: real sandboxes on the real runtimes (nothing is mocked).

The `sandbox`, `balanced_sandbox` and `open_sandbox` fixtures are parametrised over the
Python runtimes in PYTHON_RUNTIMES (today our CPython 3.13 snapshot, the one scripts/setup.sh
installs), so every test using them runs on each.
"""

from __future__ import annotations

import pytest

import sandbox_wasm as sw

PYTHON_RUNTIMES = ["cpython313"]


@pytest.fixture(scope="session", params=PYTHON_RUNTIMES)
def python_runtime(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def sandbox(python_runtime: str) -> sw.Sandbox:
    """The strict policy (the products' lists), default limits."""
    box = sw.Sandbox(policy=sw.STRICT_POLICY, python_runtime=python_runtime)
    box.warm_up()
    return box


@pytest.fixture(scope="session")
def balanced_sandbox(python_runtime: str) -> sw.Sandbox:
    """The default policy (balanced), default limits."""
    box = sw.Sandbox(python_runtime=python_runtime)
    assert box.policy == sw.BALANCED_POLICY
    box.warm_up()
    return box


@pytest.fixture(scope="session")
def open_sandbox(python_runtime: str) -> sw.Sandbox:
    """The audit in report-only mode, so that the WebAssembly boundary alone is tested."""
    box = sw.Sandbox(policy=sw.REPORT_ONLY_POLICY, python_runtime=python_runtime)
    box.warm_up()
    return box
