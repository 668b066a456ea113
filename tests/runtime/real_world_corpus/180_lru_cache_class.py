# ruff: noqa
import unittest
from collections import OrderedDict


class LRUCache:
    def __init__(self, capacity):
        if capacity <= 0:
            raise ValueError("capacity must be positive")
        self.capacity = capacity
        self.data = OrderedDict()
        self.evicted = []

    def get(self, key, default=None):
        if key not in self.data:
            return default
        self.data.move_to_end(key)
        return self.data[key]

    def put(self, key, value):
        if key in self.data:
            self.data.move_to_end(key)
        self.data[key] = value
        if len(self.data) > self.capacity:
            old, _ = self.data.popitem(last=False)
            self.evicted.append(old)

    def __repr__(self):
        return f"{self.__class__.__name__}({list(self.data.items())})"


class LRUTest(unittest.TestCase):
    def test_eviction_order(self):
        c = LRUCache(2)
        c.put("a", 1)
        c.put("b", 2)
        c.get("a")
        c.put("c", 3)
        self.assertEqual(c.evicted, ["b"])
        self.assertEqual(repr(c), "LRUCache([('a', 1), ('c', 3)])")

    def test_update_moves(self):
        c = LRUCache(2)
        c.put("x", 1)
        c.put("y", 2)
        c.put("x", 10)
        c.put("z", 3)
        self.assertEqual((c.get("x"), c.get("y")), (10, None))

    def test_invalid(self):
        with self.assertRaises(ValueError):
            LRUCache(0)


if __name__ == "__main__":
    c = LRUCache(3)
    for k in "abcadeb":
        c.put(k, ord(k))
    print(c, c.evicted)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
