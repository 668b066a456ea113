# ruff: noqa
import sqlite3
import unittest


def org_db():
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, boss INTEGER)")
    db.executemany("INSERT INTO emp VALUES (?, ?, ?)", [(1, "ceo", None), (2, "cto", 1), (3, "dev1", 2), (4, "dev2", 2), (5, "intern", 3), (6, "cfo", 1)])
    return db


def subordinates(db, name):
    q = """WITH RECURSIVE under(id, name, depth) AS (
               SELECT id, name, 0 FROM emp WHERE name = ?
               UNION ALL
               SELECT e.id, e.name, u.depth + 1 FROM emp e JOIN under u ON e.boss = u.id)
           SELECT name, depth FROM under WHERE depth > 0 ORDER BY depth, name"""
    return db.execute(q, (name,)).fetchall()


class CteTest(unittest.TestCase):
    def test_tree(self):
        db = org_db()
        self.assertEqual(subordinates(db, "cto"), [("dev1", 1), ("dev2", 1), ("intern", 2)])
        self.assertEqual(len(subordinates(db, "ceo")), 5)
        self.assertEqual(subordinates(db, "intern"), [])

    def test_series(self):
        db = sqlite3.connect(":memory:")
        rows = db.execute("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x * 2 FROM n WHERE x < 100) SELECT x FROM n").fetchall()
        self.assertEqual([r[0] for r in rows], [1, 2, 4, 8, 16, 32, 64, 128])


if __name__ == "__main__":
    for name, depth in subordinates(org_db(), "ceo"):
        print("  " * depth + name)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
