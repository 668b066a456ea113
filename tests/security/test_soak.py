"""Soak and concurrency: many mixed executions in one process leave the host as they found it,
and concurrent executions get their own, correct results.

The full runs are marked `soak` (`pytest -m soak`): 5,000 mixed executions in one process and
8 threads x 200. The default run does a shorter version of each (300, and 8 x 25).
"""

from __future__ import annotations

import gc
import random
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from host_probe import MIB, HostSnapshot

import sandbox_wasm as sw

RSS_GROWTH_LIMIT = 50 * MIB


@dataclass(frozen=True)
class Job:
    """One execution of the mix and the check its result must pass."""

    kind: str
    code: str
    check: Callable[[sw.ExecutionResult], bool]
    limits: dict[str, int]
    report_only: bool = False


def _status(status: str, exit_code: int, error: str | None = None) -> Callable[
    [sw.ExecutionResult], bool
]:
    def check(result: sw.ExecutionResult) -> bool:
        return (result.status, result.exit_code) == (status, exit_code) and (
            error is None or (result.error is not None and result.error.type == error)
        )

    return check


def make_job(kind: str, token: str) -> Job:
    """A job of `kind` whose correct result depends on `token` (so results cannot be mixed up
    between executions or threads without a check failing)."""
    if kind == "normal":
        n = sum(ord(c) for c in token)
        code = (
            "import json\n"
            "leaked = hasattr(json, 'SOAK_LEAK')\n"
            f"json.SOAK_LEAK = {token!r}\n"
            f"print({token!r}, {n} * {n}, leaked)\n"
        )
        expected = f"{token} {n * n} False\n"
        return Job(kind, code, lambda r: r.status == "succeeded" and r.stdout == expected, {})
    if kind == "timeout":
        return Job(kind, f"# {token}\nwhile True:\n    pass\n",
                   _status("timeout", 124, "TimeoutError"), {"timeout_ms": 100})
    if kind == "sleep":
        return Job(kind, f"# {token}\nimport time\ntime.sleep(60)\n",
                   _status("timeout", 124, "TimeoutError"), {"timeout_ms": 100})
    if kind == "fuel":
        return Job(kind, f"# {token}\ni = 0\nwhile True:\n    i += 1\n",
                   _status("fuel_exhausted", 124, "FuelExhausted"), {"fuel": 60_000_000})
    if kind == "trap":  # abort() in the guest: a wasm `unreachable` trap
        return Job(kind, f"# {token}\nimport os\nos.abort()\n",
                   _status("failed", 1, "GuestCrash"), {}, report_only=True)
    if kind == "memory":
        return Job(kind, f"# {token}\nx = []\nwhile True:\n    x.append(bytearray(1 << 20))\n",
                   _status("failed", 1, "MemoryError"), {"memory_mb": 32})
    if kind == "flood":
        def flood_ok(r: sw.ExecutionResult) -> bool:
            return (r.status == "succeeded" and r.stdout_truncated
                    and r.stdout == token * (1000 // len(token)) and r.stderr == "")

        code = f"print({token!r} * 100_000)\n"
        return Job(kind, code, flood_ok, {"max_stdout_bytes": 1000 // len(token) * len(token)})
    if kind == "error":
        return Job(kind, f"raise ValueError({token!r})\n",
                   lambda r: (r.status, r.exit_code) == ("failed", 1) and r.error is not None
                   and (r.error.type, r.error.message) == ("ValueError", token), {})
    if kind == "blocked":
        return Job(kind, f"import gc\nprint(len(gc.get_objects()), {token!r})\n",
                   lambda r: r.status == "blocked" and r.metrics.fuel_consumed == 0
                   and r.stdout == "", {})
    raise ValueError(kind)


# Weights of the mix: mostly ordinary runs, with every kind of abnormal end well represented.
MIX = {"normal": 40, "error": 10, "blocked": 10, "flood": 10, "timeout": 6, "sleep": 4,
       "fuel": 6, "trap": 7, "memory": 7}


def jobs(count: int, seed: int, prefix: str) -> list[Job]:
    rng = random.Random(seed)
    kinds = rng.choices(list(MIX), weights=list(MIX.values()), k=count)
    return [make_job(kind, f"{prefix}{i}x{rng.randrange(10**6)}") for i, kind in enumerate(kinds)]


def run_job(box: sw.Sandbox, job: Job) -> sw.ExecutionResult:
    policy = sw.REPORT_ONLY_POLICY if job.report_only else None
    return box.execute(job.code, limits=job.limits, policy=policy)


@pytest.fixture(scope="module")
def soak_box() -> sw.Sandbox:
    box = sw.Sandbox()
    box.warm_up()
    return box


def _soak(box: sw.Sandbox, count: int) -> dict[str, object]:
    # Warm-up: every kind once, so lazily created engine threads, caches and allocator
    # arenas exist before the baseline is taken.
    for job in jobs(60, seed=1, prefix="warm"):
        run_job(box, job)
    gc.collect()
    before = HostSnapshot.take()
    wrong: list[tuple[str, str, object]] = []
    kinds: Counter[str] = Counter()
    for job in jobs(count, seed=2, prefix="soak"):
        result = run_job(box, job)
        kinds[job.kind] += 1
        if not job.check(result):
            wrong.append((job.kind, result.status, result.error))
    gc.collect()
    after = HostSnapshot.take()
    assert not wrong, wrong[:10]
    assert sum(kinds.values()) == count and set(kinds) == set(MIX)
    if before.rss is not None and after.rss is not None:
        growth = after.rss - before.rss
        assert growth < RSS_GROWTH_LIMIT, (before.describe(), after.describe())
    if before.fds is not None and after.fds is not None:
        assert after.fds <= before.fds, (before.describe(), after.describe())
    if before.threads is not None and after.threads is not None:
        assert after.threads <= before.threads, (before.describe(), after.describe())
    assert after.python_threads <= before.python_threads
    figures = {"executions": count, "kinds": dict(kinds), "before": before.describe(),
               "after": after.describe()}
    print(f"\nsoak figures: {figures}")
    return figures


def test_soak_short(soak_box: sw.Sandbox) -> None:
    _soak(soak_box, 300)


@pytest.mark.soak
def test_soak_5000(soak_box: sw.Sandbox) -> None:
    _soak(soak_box, 5_000)


def _concurrent(box: sw.Sandbox, threads: int, per_thread: int) -> None:
    for job in jobs(40, seed=3, prefix="warm"):  # engine threads and caches exist from here
        run_job(box, job)
    gc.collect()
    before = HostSnapshot.take()
    failures: list[object] = []
    barrier = threading.Barrier(threads)

    def worker(index: int) -> None:
        mine = jobs(per_thread, seed=100 + index, prefix=f"t{index}-")
        barrier.wait()
        for job in mine:
            try:
                result = run_job(box, job)
            except BaseException as exc:
                failures.append((index, job.kind, repr(exc)))
                continue
            if not job.check(result):
                failures.append((index, job.kind, result.status, result.stdout[:80],
                                 result.error))

    pool = [threading.Thread(target=worker, args=(i,), name=f"soak-{i}") for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join(timeout=600)
    assert not any(thread.is_alive() for thread in pool), "a worker hung"
    assert not failures, failures[:10]
    gc.collect()
    after = HostSnapshot.take()
    print(f"\nconcurrency {threads}x{per_thread}: before {before.describe()}, "
          f"after {after.describe()}")
    if before.fds is not None and after.fds is not None:
        assert after.fds <= before.fds, (before.describe(), after.describe())
    if before.threads is not None and after.threads is not None:
        assert after.threads <= before.threads, (before.describe(), after.describe())
    if before.rss is not None and after.rss is not None:
        # Worker threads get their own allocator arenas; what they keep must stay small.
        assert after.rss - before.rss < RSS_GROWTH_LIMIT, (before.describe(), after.describe())
    assert after.python_threads <= before.python_threads


def test_concurrent_8x25(soak_box: sw.Sandbox) -> None:
    _concurrent(soak_box, 8, 25)


@pytest.mark.soak
def test_concurrent_8x200(soak_box: sw.Sandbox) -> None:
    _concurrent(soak_box, 8, 200)
