# ruff: noqa
import unittest
from dataclasses import dataclass


@dataclass(frozen=True)
class Money:
    cents: int
    currency: str = "EUR"

    def allocate(self, ratios):
        total = sum(ratios)
        shares = [self.cents * r // total for r in ratios]
        remainder = self.cents - sum(shares)
        for i in range(remainder):
            shares[i] += 1
        return [Money(s, self.currency) for s in shares]

    def __add__(self, other):
        if other.currency != self.currency:
            raise ValueError("currency mismatch")
        return Money(self.cents + other.cents, self.currency)

    def __str__(self):
        return f"{self.cents // 100}.{self.cents % 100:02d} {self.currency}"


class MoneyTest(unittest.TestCase):
    def test_allocate_no_cent_lost(self):
        parts = Money(1000).allocate([1, 1, 1])
        self.assertEqual([p.cents for p in parts], [334, 333, 333])
        self.assertEqual(sum(p.cents for p in parts), 1000)

    def test_ratios(self):
        self.assertEqual([str(p) for p in Money(10001).allocate([70, 30])], ["70.01 EUR", "30.00 EUR"])

    def test_currency(self):
        with self.assertRaises(ValueError):
            Money(1) + Money(1, "USD")


if __name__ == "__main__":
    print([str(m) for m in Money(9999).allocate([50, 25, 25])])
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
