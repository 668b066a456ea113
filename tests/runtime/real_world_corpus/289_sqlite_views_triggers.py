# ruff: noqa
import sqlite3
import unittest

SCHEMA = """
CREATE TABLE stock (sku TEXT PRIMARY KEY, qty INTEGER NOT NULL);
CREATE TABLE audit (sku TEXT, old_qty INTEGER, new_qty INTEGER);
CREATE TRIGGER stock_audit AFTER UPDATE OF qty ON stock
BEGIN
    INSERT INTO audit VALUES (OLD.sku, OLD.qty, NEW.qty);
END;
CREATE VIEW low_stock AS SELECT sku, qty FROM stock WHERE qty < 5;
"""


class TriggerTest(unittest.TestCase):
    def setUp(self):
        self.db = sqlite3.connect(":memory:")
        self.db.executescript(SCHEMA)
        self.db.executemany("INSERT INTO stock VALUES (?, ?)", [("a", 10), ("b", 3), ("c", 7)])

    def test_trigger_audits(self):
        self.db.execute("UPDATE stock SET qty = qty - 6 WHERE sku IN ('a', 'c')")
        self.assertEqual(self.db.execute("SELECT * FROM audit ORDER BY sku").fetchall(), [("a", 10, 4), ("c", 7, 1)])

    def test_view(self):
        self.assertEqual(self.db.execute("SELECT sku FROM low_stock").fetchall(), [("b",)])
        self.db.execute("UPDATE stock SET qty = 0 WHERE sku = 'a'")
        self.assertEqual(self.db.execute("SELECT sku FROM low_stock ORDER BY sku").fetchall(), [("a",), ("b",)])


if __name__ == "__main__":
    t = TriggerTest("test_view")
    t.setUp()
    t.db.execute("UPDATE stock SET qty = 1 WHERE sku = 'c'")
    print(t.db.execute("SELECT * FROM audit").fetchall())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
