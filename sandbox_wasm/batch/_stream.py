"""The order-keeping, memory-bounded driver that feeds a pool and yields in input order."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from ._items import BatchResult, InvalidRequest, Job


class Pool(Protocol):
    """Where jobs run (local processes or Ray tasks)."""

    def submit(self, job: Job) -> None: ...
    def wait(self) -> list[tuple[int, BatchResult]]: ...
    def close(self, abort: bool) -> None: ...


def stream(
    items: Iterator[Job | InvalidRequest], pool: Pool, max_pending: int
) -> Iterator[BatchResult]:
    """Feed `pool` from `items` and yield results in input order. At most `max_pending`
    items are read but not yet yielded, so an input far larger than memory streams through
    (a slow item at the head holds back at most that many finished ones)."""
    done: dict[int, BatchResult] = {}
    next_index = 0
    outstanding = 0
    exhausted = False
    finished = False
    try:
        while True:
            while not exhausted and outstanding < max_pending:
                try:
                    item = next(items)
                except StopIteration:
                    exhausted = True
                    break
                outstanding += 1
                if isinstance(item, InvalidRequest):
                    done[item.index] = item
                else:
                    pool.submit(item)
            if next_index in done:
                result = done.pop(next_index)
                next_index += 1
                outstanding -= 1
                yield result
                continue
            if exhausted and outstanding == 0:
                finished = True
                return
            for index, result in pool.wait():
                done[index] = result
    finally:
        pool.close(abort=not finished)
