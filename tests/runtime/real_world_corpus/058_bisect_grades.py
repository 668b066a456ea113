# ruff: noqa
import bisect


def grade(score, breakpoints=(60, 70, 80, 90), grades="FDCBA"):
    """
    >>> [grade(s) for s in (33, 99, 77, 70, 89, 90, 100)]
    ['F', 'A', 'C', 'C', 'B', 'A', 'A']
    """
    return grades[bisect.bisect(breakpoints, score)]


def binary_search(items, target):
    """Index of *target* in sorted *items*, or -1.

    >>> data = [1, 3, 5, 7, 9, 11]
    >>> [binary_search(data, x) for x in (1, 7, 11, 4, 12)]
    [0, 3, 5, -1, -1]
    >>> binary_search([], 1)
    -1
    """
    lo, hi = 0, len(items) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if items[mid] == target:
            return mid
        if items[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def insert_sorted(items, value):
    """
    >>> xs = [10, 20, 30]
    >>> insert_sorted(xs, 25); insert_sorted(xs, 5); xs
    [5, 10, 20, 25, 30]
    """
    bisect.insort(items, value)


def count_in_range(items, lo, hi):
    """
    >>> count_in_range([1, 2, 2, 3, 5, 8, 13], 2, 5)
    4
    """
    return bisect.bisect_right(items, hi) - bisect.bisect_left(items, lo)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
