"""Timing helpers the benchmarks share: how a call is timed and how samples are summarised."""

from __future__ import annotations

import time
from collections.abc import Callable


def percentile(values: list[float], q: float) -> float:
    """The `q` quantile (0..1) of `values`, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def milliseconds(fn: Callable[[], object]) -> float:
    """How long one call of `fn` took, in ms."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def summary(samples: list[float]) -> dict[str, float]:
    """p50, p95 and the count of samples in ms."""
    return {
        "p50_ms": round(percentile(samples, 0.5), 3),
        "p95_ms": round(percentile(samples, 0.95), 3),
        "n": len(samples),
    }
