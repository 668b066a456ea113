# ruff: noqa
import unittest
from dataclasses import dataclass, field
from decimal import Decimal


@dataclass
class CartItem:
    sku: str
    price: Decimal
    qty: int = 1


@dataclass
class Cart:
    items: dict = field(default_factory=dict)
    coupon: str | None = None

    COUPONS = {"SAVE10": ("percent", Decimal("10")), "FIVEOFF": ("fixed", Decimal("5"))}

    def add(self, sku, price, qty=1):
        if sku in self.items:
            self.items[sku].qty += qty
        else:
            self.items[sku] = CartItem(sku, Decimal(price), qty)

    def remove(self, sku, qty=1):
        item = self.items[sku]
        item.qty -= qty
        if item.qty <= 0:
            del self.items[sku]

    def subtotal(self):
        return sum((i.price * i.qty for i in self.items.values()), Decimal("0"))

    def total(self):
        sub = self.subtotal()
        if self.coupon in self.COUPONS:
            kind, amount = self.COUPONS[self.coupon]
            sub -= (sub * amount / 100).quantize(Decimal("0.01")) if kind == "percent" else amount
        return max(sub, Decimal("0")).quantize(Decimal("0.01"))


class CartTest(unittest.TestCase):
    def test_totals(self):
        c = Cart()
        c.add("tea", "4.50", 2)
        c.add("mug", "8.99")
        c.add("tea", "4.50")
        self.assertEqual(c.subtotal(), Decimal("22.49"))
        c.coupon = "SAVE10"
        self.assertEqual(c.total(), Decimal("20.24"))
        c.coupon = "FIVEOFF"
        self.assertEqual(c.total(), Decimal("17.49"))

    def test_remove(self):
        c = Cart()
        c.add("x", "1", 2)
        c.remove("x", 2)
        self.assertEqual(c.items, {})
        self.assertEqual(c.total(), Decimal("0.00"))


if __name__ == "__main__":
    c = Cart(coupon="SAVE10")
    c.add("book", "12.00", 3)
    print(c.subtotal(), c.total())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
