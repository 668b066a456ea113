"""A bounded pool of worker threads with admission control.

Executions run on threads so the event loop keeps answering (health checks, other
requests) while wasm runs; the wasm calls release the GIL. At most `workers` run and
`queue` more wait: past that a request is refused at once (503) instead of piling up
memory and latency without bound.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class PoolSaturated(Exception):
    """Every worker is busy and the queue is full."""


class WorkerPool:
    """`workers` threads plus a waiting line of at most `queue` executions."""

    def __init__(self, workers: int, queue: int) -> None:
        self.workers = workers
        self.queue_capacity = queue
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="sandbox-worker")
        self._lock = threading.Lock()
        self._admitted = 0
        self._running = 0

    @property
    def busy(self) -> int:
        """Executions running now."""
        return self._running

    @property
    def full(self) -> bool:
        """Every worker is busy and the queue is full: `submit` would refuse now."""
        with self._lock:
            return self._admitted >= self.workers + self.queue_capacity

    @property
    def queued(self) -> int:
        """Executions admitted and waiting for a worker."""
        with self._lock:
            return self._admitted - self._running

    def submit(
        self, fn: Callable[[], T], *, on_start: Callable[[], None] | None = None
    ) -> Future[T]:
        """Run `fn` on a worker; raises PoolSaturated when there is no room."""
        with self._lock:
            if self._admitted >= self.workers + self.queue_capacity:
                raise PoolSaturated
            self._admitted += 1

        def task() -> T:
            with self._lock:
                self._running += 1
            try:
                if on_start is not None:
                    on_start()
                return fn()
            finally:
                with self._lock:
                    self._running -= 1

        def release(_: Future[T]) -> None:
            # A done-callback, not a `finally` in task(): a waiting execution that is
            # cancelled never runs, and its place must still be given back. Registered
            # before anyone else can wait on the future, so the place is free by the time
            # a waiter sees the result.
            with self._lock:
                self._admitted -= 1

        try:
            future = self._executor.submit(task)
        except BaseException:
            with self._lock:
                self._admitted -= 1
            raise
        future.add_done_callback(release)
        return future

    async def run(self, fn: Callable[[], T]) -> T:
        """`submit` and wait for the result without blocking the event loop."""
        return await asyncio.wrap_future(self.submit(fn))

    def shutdown(self) -> None:
        """Drop waiting executions; running ones finish within their own deadline."""
        self._executor.shutdown(wait=False, cancel_futures=True)
