# ruff: noqa
import csv
import unittest
from dataclasses import astuple, dataclass, fields


@dataclass
class Product:
    sku: str
    name: str
    stock: int
    reorder_level: int

    @classmethod
    def from_row(cls, row):
        kwargs = {}
        for f in fields(cls):
            kwargs[f.name] = f.type(row[f.name]) if f.type in (int, float) else row[f.name]
        return cls(**kwargs)


def save(path, products):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow([f.name for f in fields(Product)])
        w.writerows(astuple(p) for p in products)


def load(path):
    with open(path, newline="") as fh:
        return [Product.from_row(r) for r in csv.DictReader(fh)]


def needs_reorder(products):
    return [p.sku for p in products if p.stock <= p.reorder_level]


class ProductCsvTest(unittest.TestCase):
    ITEMS = [Product("P1", "Paper, A4", 3, 5), Product("P2", 'Stapler "Pro"', 12, 2), Product("P3", "Ink", 2, 2)]

    def test_round_trip_with_quotes(self):
        save("products.csv", self.ITEMS)
        self.assertEqual(load("products.csv"), self.ITEMS)

    def test_reorder(self):
        save("products.csv", self.ITEMS)
        self.assertEqual(needs_reorder(load("products.csv")), ["P1", "P3"])

    def test_types(self):
        save("products.csv", self.ITEMS)
        self.assertIsInstance(load("products.csv")[0].stock, int)


if __name__ == "__main__":
    save("products.csv", ProductCsvTest.ITEMS)
    print(open("products.csv", newline="").read().replace("\r\n", "\n"), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
