# ruff: noqa
"""Warehouse stock movements kept in SQLite (file in the working directory).

>>> wh = Warehouse("warehouse.db")
>>> for sku, qty in [("A", 10), ("B", 5), ("A", -3), ("C", 2), ("B", -5)]:
...     wh.move(sku, qty)
>>> wh.stock()
[('A', 7), ('C', 2)]
>>> wh.move("C", -3)
Traceback (most recent call last):
...
ValueError: not enough C: have 2, need 3
>>> wh.history("A")
[(1, 10), (3, -3)]
>>> wh.close()
>>> Warehouse("warehouse.db").stock()
[('A', 7), ('C', 2)]
"""
import sqlite3


class Warehouse:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS moves (id INTEGER PRIMARY KEY, sku TEXT, qty INTEGER)")

    def level(self, sku):
        return self.db.execute("SELECT COALESCE(SUM(qty), 0) FROM moves WHERE sku = ?", (sku,)).fetchone()[0]

    def move(self, sku, qty):
        have = self.level(sku)
        if have + qty < 0:
            raise ValueError(f"not enough {sku}: have {have}, need {-qty}")
        with self.db:
            self.db.execute("INSERT INTO moves (sku, qty) VALUES (?, ?)", (sku, qty))

    def stock(self):
        return self.db.execute("SELECT sku, SUM(qty) FROM moves GROUP BY sku HAVING SUM(qty) > 0 ORDER BY sku").fetchall()

    def history(self, sku):
        return self.db.execute("SELECT id, qty FROM moves WHERE sku = ? ORDER BY id", (sku,)).fetchall()

    def close(self):
        self.db.close()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
