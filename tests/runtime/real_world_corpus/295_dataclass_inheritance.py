# ruff: noqa
import json
import unittest
from dataclasses import dataclass, asdict, field


@dataclass
class Shape:
    name: str
    kind: str = field(init=False)

    def __post_init__(self):
        self.kind = self.__class__.__name__.lower()

    def area(self):
        raise NotImplementedError


@dataclass
class Rect(Shape):
    w: float = 1.0
    h: float = 1.0

    def area(self):
        return self.w * self.h


@dataclass
class Circle(Shape):
    r: float = 1.0

    def area(self):
        return round(3.14159 * self.r ** 2, 3)


KINDS = {cls.__name__.lower(): cls for cls in (Rect, Circle)}


def load(data):
    d = dict(data)
    return KINDS[d.pop("kind")](**d)


class InheritanceTest(unittest.TestCase):
    def test_round_trip(self):
        shapes = [Rect("door", 1, 2), Circle("coin", 0.5)]
        with open("shapes.json", "w") as f:
            json.dump([asdict(s) for s in shapes], f)
        with open("shapes.json") as f:
            back = [load(d) for d in json.load(f)]
        self.assertEqual(back, shapes)
        self.assertEqual([s.area() for s in back], [2, 0.785])

    def test_kind(self):
        self.assertEqual(Circle("x").kind, "circle")


if __name__ == "__main__":
    print([asdict(s) for s in (Rect("a", 2, 3), Circle("b"))])
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
