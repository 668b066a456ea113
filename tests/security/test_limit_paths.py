"""Every limit on every path: the deadline, the memory cap and the status table must hold not
only while user code runs but also while the source is audited and the answer judged.

Cases marked xfail(strict=True) are known weaknesses of the core, each reproduced exactly
here; they turn into failures (XPASS) as soon as the core is fixed, so the mark comes off.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import sandbox_wasm as sw
from sandbox_wasm._audit.cache import AUDIT_CACHE

ROOT = Path(__file__).resolve().parents[2]


def _long_from_import(dots: int, names: int) -> str:
    """`from a.a.a...a import b0, b1, ...`: every imported name becomes a finding whose
    module path is `dots` components long."""
    return "from " + "a." * dots + "a import " + ", ".join(f"b{i}" for i in range(names)) + "\n"


@pytest.fixture(scope="module")
def box() -> sw.Sandbox:
    # Strict: an import outside its allowlist is a finding, so a long import line is a long
    # answer to judge (balanced allows the import and lets it fail at run time).
    sandbox = sw.Sandbox(policy="strict")
    sandbox.warm_up()
    return sandbox


def test_judging_the_audit_answer_is_bounded_by_the_deadline() -> None:
    # Run in a child process so that the host CPU it burns can be cut off.
    script = textwrap.dedent(
        f"""
        import time, sandbox_wasm as sw
        box = sw.Sandbox(policy="strict")  # every imported name is then a finding
        box.warm_up()
        started = time.monotonic()
        result = box.execute({_long_from_import(3_000, 200)!r}, timeout_ms=500)
        print(result.status, round(time.monotonic() - started, 2))
        """
    )
    try:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=6, cwd=ROOT)
    except subprocess.TimeoutExpired:
        pytest.fail("execute(timeout_ms=500) still running after 6 s")
    status, seconds = done.stdout.split()
    assert status == "blocked"
    assert float(seconds) <= 0.5 + 2.0, f"execute(timeout_ms=500) took {seconds} s"


def test_oversized_audit_answer_is_not_an_internal_error(box: sw.Sandbox) -> None:
    result = box.execute(_long_from_import(6_000, 3_000), timeout_ms=10_000)
    assert result.status != "internal_error" and result.exit_code != 70, result.error
    assert result.status in ("blocked", "syntax_error", "memory_exceeded", "timeout")


def test_audit_running_out_of_memory_is_not_an_internal_error(box: sw.Sandbox) -> None:
    result = box.execute(_long_from_import(6_000, 3_000), memory_mb=64, timeout_ms=10_000)
    assert result.status != "internal_error" and result.exit_code != 70, result.error


def test_parse_out_of_memory_is_not_a_syntax_error() -> None:
    big = sw.Sandbox(limits=sw.Limits(max_source_bytes=1 << 20))
    source = "x = 1\n" * 20_000 + "print(x)\n"  # 120 KB, valid
    assert big.execute(source).stdout == "1\n"  # valid, and runs with the default cap
    # Audited afresh (not from the audit cache, whose kept code the guest would load
    # unparsed: tests/runtime/test_audit_cache.py), at the smallest accepted cap.
    AUDIT_CACHE.clear()
    result = big.execute(source, memory_mb=32)
    assert result.syntax_valid, result.error
    assert result.status in ("failed", "memory_exceeded"), result.error


@pytest.mark.xfail(
    strict=True,
    reason="after a deadline trap in a tight loop, metrics.fuel_consumed reports roughly the "
    "start-up cost (~2.5 M) instead of the ~1-3 G fuel burnt in 500 ms: fuel is not flushed "
    "to the store when the epoch interrupt traps",
)
def test_fuel_is_accounted_when_the_deadline_fires(box: sw.Sandbox) -> None:
    result = box.execute("while True:\n    pass", timeout_ms=500)
    assert result.status == "timeout"
    bounded = box.execute("while True:\n    pass", limits={"fuel": 300_000_000})
    assert bounded.status == "fuel_exhausted"
    # 300 M fuel lasted bounded.execution_time_ms; 500 ms burns proportionally more.
    rate = 300_000_000 / max(bounded.metrics.execution_time_ms, 1.0)
    assert result.metrics.fuel_consumed >= 0.2 * rate * result.metrics.execution_time_ms


def test_a_tiny_fuel_budget_applies_to_the_user_code(box: sw.Sandbox) -> None:
    """The audit runs under its own budget; the user's fuel then bounds the user's code, and
    the reported fuel counts both."""
    result = box.execute("print(sum(range(10**6)))", limits={"fuel": 1_000_000})
    assert (result.status, result.exit_code) == ("fuel_exhausted", 124)
    assert result.metrics.fuel_consumed > 1_000_000
    assert result.metrics.peak_memory_bytes > 0


def test_audit_of_hostile_source_is_bounded_by_the_deadline(box: sw.Sandbox) -> None:
    """The guest-side audit runs under the execution's own deadline and memory cap."""
    source = "x = [" + "1," * 15_000 + "]\n"  # 30 KB: parsing it takes a while at -O0
    started = time.monotonic()
    result = box.execute(source, timeout_ms=50)
    assert time.monotonic() - started < 0.05 + 2.0
    assert result.status in ("timeout", "succeeded"), result.error
