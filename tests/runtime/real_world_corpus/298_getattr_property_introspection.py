# ruff: noqa
import inspect
import unittest


class Rectangle:
    def __init__(self, w, h):
        self.w, self.h = w, h

    @property
    def area(self):
        return self.w * self.h

    @property
    def perimeter(self):
        return 2 * (self.w + self.h)

    @property
    def is_square(self):
        return self.w == self.h

    def scale(self, k):
        return Rectangle(self.w * k, self.h * k)


def describe(obj):
    props = [n for n, v in inspect.getmembers(type(obj)) if isinstance(v, property)]
    return {n: getattr(obj, n) for n in props}


class IntrospectionTest(unittest.TestCase):
    def test_props(self):
        self.assertEqual(describe(Rectangle(2, 3)), {"area": 6, "is_square": False, "perimeter": 10})

    def test_methods(self):
        methods = [n for n, _ in inspect.getmembers(Rectangle, inspect.isfunction) if not n.startswith("_")]
        self.assertEqual(methods, ["scale"])
        self.assertEqual(str(inspect.signature(Rectangle.scale)), "(self, k)")


if __name__ == "__main__":
    print(describe(Rectangle(4, 4).scale(2)))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
