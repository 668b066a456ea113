"""Shared fixtures: real sandboxes on the real runtimes, a real Redis (nothing is mocked);
and the markers that follow from them.

The `sandbox`, `balanced_sandbox` and `open_sandbox` fixtures are parametrised over the
Python runtimes in PYTHON_RUNTIMES (today our CPython 3.13 snapshot, the one scripts/setup.sh
installs), so every test using them runs on each. `gateway_sandbox` is the sandbox
`wasm-exec serve` builds, one per module of the gateway tests; `redis_server` a real
`redis-server` per module.

Markers (registered in pyproject.toml): a test that uses `redis_server` is marked `redis`,
one that uses `ray_cluster` (tests/runtime/test_batch.py) `ray`, and a `soak` test `slow`
too, so that `-m "not slow"` leaves the soak runs out as the default run does. `slow` is
otherwise set in the test files.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

import sandbox_wasm as sw

if TYPE_CHECKING:
    from live_redis import RedisServer

PYTHON_RUNTIMES = ["cpython313"]

#: Markers set from the fixtures a test uses.
FIXTURE_MARKERS = {"redis_server": "redis", "ray_cluster": "ray"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        for fixture, marker in FIXTURE_MARKERS.items():
            if fixture in names:
                item.add_marker(marker)
        if item.get_closest_marker("soak"):
            item.add_marker("slow")


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


@pytest.fixture(scope="module")
def gateway_sandbox() -> Iterator[sw.Sandbox]:
    """The sandbox `wasm-exec serve` builds: default runtime, policy and limits, one per
    module. The runtime variants are the library tests' concern; the gateway is tested on one."""
    with sw.Sandbox() as box:
        box.warm_up()
        yield box


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real `redis-server` on a loopback port, without persistence."""
    from live_redis import RedisServer  # redis-py is a server extra: only these tests need it

    server = RedisServer(tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.client.close()
        server.stop()
