# ruff: noqa
import math
import sys
import unittest


class Circle:
    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r ** 2


class Rectangle:
    def __init__(self, w, h):
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h


class Triangle:
    def __init__(self, a, b, c):
        self.sides = (a, b, c)

    def area(self):
        a, b, c = self.sides
        s = (a + b + c) / 2
        return math.sqrt(s * (s - a) * (s - b) * (s - c))


def make_shape(spec):
    """Build a shape from a spec like 'Rectangle 3 4' using the module namespace."""
    name, *args = spec.split()
    cls = getattr(sys.modules[__name__], name, None)
    if not isinstance(cls, type) or not hasattr(cls, "area"):
        raise ValueError(f"unknown shape {name!r}")
    return cls(*map(float, args))


class FactoryTest(unittest.TestCase):
    def test_areas(self):
        specs = {"Circle 1": math.pi, "Rectangle 3 4": 12.0, "Triangle 3 4 5": 6.0}
        for spec, area in specs.items():
            with self.subTest(spec=spec):
                self.assertAlmostEqual(make_shape(spec).area(), area)

    def test_unknown(self):
        for bad in ("Hexagon 1", "math 1", "unittest 2"):
            with self.assertRaises(ValueError):
                make_shape(bad)

    def test_class_name(self):
        self.assertEqual(make_shape("Circle 2").__class__.__name__, "Circle")


if __name__ == "__main__":
    for spec in ["Circle 2", "Rectangle 2 5", "Triangle 5 5 6"]:
        shape = make_shape(spec)
        print(f"{shape.__class__.__name__:<10} {shape.area():.3f}")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
