# ruff: noqa
import unittest
from dataclasses import dataclass, fields


@dataclass
class Laptop:
    model: str
    price: int
    ram_gb: int
    weight_kg: float
    battery_h: int


BETTER_HIGH = {"ram_gb", "battery_h"}


def compare(items):
    """For each numeric field, which model is best."""
    best = {}
    for f in fields(Laptop):
        if f.type is str:
            continue
        pick = max if f.name in BETTER_HIGH else min
        best[f.name] = pick(items, key=lambda x: getattr(x, f.name)).model
    return best


def score(item, weights):
    return sum(getattr(item, k) * w for k, w in weights.items())


class CompareTest(unittest.TestCase):
    ITEMS = [Laptop("Air", 1199, 16, 1.24, 18), Laptop("Tank", 899, 32, 2.5, 6), Laptop("Mid", 999, 16, 1.6, 12)]

    def test_best(self):
        self.assertEqual(compare(self.ITEMS), {"price": "Tank", "ram_gb": "Tank", "weight_kg": "Air", "battery_h": "Air"})

    def test_score(self):
        w = {"ram_gb": 10, "battery_h": 20, "price": -0.1}
        ranked = sorted(self.ITEMS, key=lambda i: -score(i, w))
        self.assertEqual([i.model for i in ranked], ["Air", "Tank", "Mid"])


if __name__ == "__main__":
    for k, v in compare(CompareTest.ITEMS).items():
        print(f"{k:<10}{v}")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
