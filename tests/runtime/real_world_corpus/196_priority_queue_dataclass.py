# ruff: noqa
import heapq
import itertools
from dataclasses import dataclass, field


@dataclass(order=True)
class Job:
    priority: int
    seq: int
    name: str = field(compare=False)


class JobQueue:
    """
    >>> q = JobQueue()
    >>> for name, prio in [("email", 3), ("backup", 1), ("report", 2), ("cleanup", 1)]:
    ...     q.push(name, prio)
    >>> len(q)
    4
    >>> [q.pop() for _ in range(len(q))]
    ['backup', 'cleanup', 'report', 'email']
    >>> q.pop()
    Traceback (most recent call last):
    ...
    IndexError: pop from empty queue
    """

    def __init__(self):
        self._heap = []
        self._counter = itertools.count()

    def push(self, name, priority):
        heapq.heappush(self._heap, Job(priority, next(self._counter), name))

    def pop(self):
        if not self._heap:
            raise IndexError("pop from empty queue")
        return heapq.heappop(self._heap).name

    def __len__(self):
        return len(self._heap)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
