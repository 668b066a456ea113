# ruff: noqa
import heapq
from dataclasses import dataclass, field


@dataclass(order=True)
class Task:
    """A task ordered by (priority, name); notes do not take part in comparisons.

    >>> Task(2, "b") < Task(2, "c") < Task(3, "a")
    True
    >>> Task(1, "x", notes="n") == Task(1, "x")
    True
    >>> Task(1, "x")
    Task(priority=1, name='x')
    """

    priority: int
    name: str
    notes: str = field(default="", compare=False, repr=False)


def schedule(tasks):
    """Pop tasks in priority order.

    >>> schedule([Task(3, "deploy"), Task(1, "fix bug"), Task(2, "review"), Task(1, "coffee")])
    ['coffee', 'fix bug', 'review', 'deploy']
    """
    heap = list(tasks)
    heapq.heapify(heap)
    return [heapq.heappop(heap).name for _ in range(len(heap))]


def bump(task, by=1):
    """Return a copy with a higher priority (smaller number), never below 0.

    >>> bump(Task(1, "a"), 5)
    Task(priority=0, name='a')
    """
    from dataclasses import replace
    return replace(task, priority=max(0, task.priority - by))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
