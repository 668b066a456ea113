# ruff: noqa
import json
import unittest
from dataclasses import asdict, dataclass, field


@dataclass
class Item:
    sku: str
    name: str
    quantity: int = 0
    price: float = 0.0
    tags: list[str] = field(default_factory=list)

    @property
    def value(self):
        return round(self.quantity * self.price, 2)


@dataclass
class Inventory:
    items: list[Item] = field(default_factory=list)

    def add(self, item):
        if any(i.sku == item.sku for i in self.items):
            raise ValueError(f"duplicate sku {item.sku}")
        self.items.append(item)

    def restock(self, sku, amount):
        for item in self.items:
            if item.sku == sku:
                item.quantity += amount
                return item
        raise KeyError(sku)

    def total_value(self):
        return round(sum(i.value for i in self.items), 2)

    def save(self, path):
        with open(path, "w") as f:
            json.dump([asdict(i) for i in self.items], f, indent=2, sort_keys=True)

    @classmethod
    def load(cls, path):
        with open(path) as f:
            return cls([Item(**d) for d in json.load(f)])


class InventoryTest(unittest.TestCase):
    def make(self):
        inv = Inventory()
        inv.add(Item("A1", "bolt", 100, 0.05, ["hardware"]))
        inv.add(Item("B2", "hammer", 3, 12.5))
        return inv

    def test_value(self):
        self.assertEqual(self.make().total_value(), 42.5)

    def test_duplicate(self):
        inv = self.make()
        with self.assertRaises(ValueError):
            inv.add(Item("A1", "other"))

    def test_restock_missing(self):
        with self.assertRaises(KeyError):
            self.make().restock("ZZ", 1)

    def test_round_trip(self):
        inv = self.make()
        inv.restock("B2", 2)
        inv.save("inventory.json")
        loaded = Inventory.load("inventory.json")
        self.assertEqual(loaded, inv)
        self.assertEqual(loaded.items[1].quantity, 5)


if __name__ == "__main__":
    inv = InventoryTest().make()
    inv.save("inventory.json")
    print(open("inventory.json").read())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
