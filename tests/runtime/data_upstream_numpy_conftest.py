"""numpy 2.4.6's root conftest (numpy/conftest.py) as the sandbox runs it: shipped to the guest
as /input/numpy/conftest.py by tests/runtime/data_upstream.py, never imported on the host.

Left out of upstream's, and why:
- the FPU-mode check (`pytest_itemcollected`, the autouse `check_fpu_mode` fixture): it reads
  the mode with `numpy._core._multiarray_tests.get_fpu_mode`, a C test module the runtime does
  not build (WebAssembly has one fixed rounding mode and no x87 precision control anyway);
- scipy_doctest's configuration and the free-threading (NOGIL) report: neither exists here.
Kept: the hypothesis profile numpy uses without its pytest.ini ("np.test() profile":
derandomised, no example database, so CI runs are reproducible), the markers and option the
test modules use, `NUMPY_EXPERIMENTAL_DTYPE_API`, and the doctest namespace fixture.
"""

from __future__ import annotations

import os

import hypothesis
import numpy
import pytest

hypothesis.settings.register_profile(
    name="np.test() profile",
    deadline=None, print_blob=True, database=None, derandomize=True,
    suppress_health_check=list(hypothesis.HealthCheck),
)
hypothesis.settings.load_profile("np.test() profile")

os.environ["NUMPY_EXPERIMENTAL_DTYPE_API"] = "1"


def pytest_configure(config: pytest.Config) -> None:
    for line in (
        "valgrind_error: Tests that are known to error under valgrind.",
        "leaks_references: Tests that are known to leak references.",
        "slow: Tests that are very slow.",
        "slow_pypy: Tests that are very slow on pypy.",
        "parallel_threads(n): run the given test function in parallel using `n` threads.",
        "iterations(n): run the given test function `n` times in each thread",
        "thread_unsafe: mark the test function as single-threaded",
    ):
        config.addinivalue_line("markers", line)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--available-memory", action="store", default=None,
                     help="Memory available to the test suite (NPY_AVAILABLE_MEM).")


def pytest_sessionstart(session: pytest.Session) -> None:
    available_mem = session.config.getoption("available_memory")
    if available_mem is not None:
        os.environ["NPY_AVAILABLE_MEM"] = available_mem


@pytest.fixture(autouse=True)
def add_np(doctest_namespace: dict[str, object]) -> None:
    doctest_namespace["np"] = numpy
