# ruff: noqa
import sqlite3
import unittest


def plan(db, sql, params=()):
    return " | ".join(row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + sql, params))


class IndexTest(unittest.TestCase):
    def setUp(self):
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE TABLE log (id INTEGER PRIMARY KEY, level TEXT, ts TEXT)")
        self.db.executemany("INSERT INTO log (level, ts) VALUES (?, ?)", [("INFO" if i % 5 else "ERROR", f"2024-01-{i % 28 + 1:02d}") for i in range(200)])

    def test_index_used(self):
        self.assertTrue(plan(self.db, "SELECT * FROM log WHERE level = ?", ("ERROR",)).startswith("SCAN"))
        self.db.execute("CREATE INDEX log_level ON log(level)")
        self.assertIn("USING INDEX log_level", plan(self.db, "SELECT * FROM log WHERE level = ?", ("ERROR",)))

    def test_counts(self):
        self.assertEqual(self.db.execute("SELECT level, COUNT(*) FROM log GROUP BY level ORDER BY level").fetchall(), [("ERROR", 40), ("INFO", 160)])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
