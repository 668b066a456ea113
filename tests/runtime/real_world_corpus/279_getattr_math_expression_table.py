# ruff: noqa
import math
import unittest


def evaluate_table(func_names, xs):
    rows = []
    for name in func_names:
        func = getattr(math, name)
        rows.append([name] + [round(func(x), 4) for x in xs])
    return rows


class TableTest(unittest.TestCase):
    def test_values(self):
        rows = evaluate_table(["sin", "cos", "exp"], [0, 1])
        self.assertEqual(rows, [["sin", 0.0, 0.8415], ["cos", 1.0, 0.5403], ["exp", 1.0, 2.7183]])

    def test_missing(self):
        with self.assertRaises(AttributeError):
            evaluate_table(["sine"], [0])


if __name__ == "__main__":
    for row in evaluate_table(["sqrt", "log1p", "atan"], [1, 2, 4]):
        print(*row)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
