# ruff: noqa
import math
from dataclasses import dataclass, FrozenInstanceError


@dataclass(frozen=True)
class Point:
    """An immutable 2-D point.

    >>> p = Point(3, 4)
    >>> p.distance_to(Point(0, 0))
    5.0
    >>> p + Point(1, 1)
    Point(x=4, y=5)
    >>> try:
    ...     p.x = 10
    ... except FrozenInstanceError as e:
    ...     print("frozen:", e)
    frozen: cannot assign to field 'x'
    >>> len({Point(1, 2), Point(1, 2), Point(2, 1)})
    2
    """

    x: float
    y: float

    def __add__(self, other):
        return Point(self.x + other.x, self.y + other.y)

    def distance_to(self, other):
        return math.hypot(self.x - other.x, self.y - other.y)


def centroid(points):
    """
    >>> centroid([Point(0, 0), Point(4, 0), Point(4, 3), Point(0, 3)])
    Point(x=2.0, y=1.5)
    """
    n = len(points)
    return Point(sum(p.x for p in points) / n, sum(p.y for p in points) / n)


def perimeter(points):
    """
    >>> perimeter([Point(0, 0), Point(4, 0), Point(4, 3)])
    12.0
    """
    return sum(a.distance_to(b) for a, b in zip(points, points[1:] + points[:1]))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
