# ruff: noqa
from functools import lru_cache


@lru_cache(maxsize=None)
def fib(n):
    """Return the n-th Fibonacci number.

    >>> [fib(i) for i in range(10)]
    [0, 1, 1, 2, 3, 5, 8, 13, 21, 34]
    >>> fib(90)
    2880067194370816120
    >>> fib(-1)
    Traceback (most recent call last):
    ...
    ValueError: n must be >= 0
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def fib_iter(limit):
    """Yield Fibonacci numbers below *limit*.

    >>> list(fib_iter(100))
    [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89]
    """
    a, b = 0, 1
    while a < limit:
        yield a
        a, b = b, a + b


def even_sum(limit):
    """Project Euler #2.

    >>> even_sum(4_000_000)
    4613732
    """
    return sum(x for x in fib_iter(limit) if x % 2 == 0)


def cache_stats():
    """
    >>> fib.cache_clear(); _ = fib(30); info = cache_stats(); info.misses, info.currsize
    (31, 31)
    """
    return fib.cache_info()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
