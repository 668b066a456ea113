# ruff: noqa
import sqlite3
import unittest


class Importer:
    def __init__(self):
        self.db = sqlite3.connect(":memory:", isolation_level=None)
        self.db.execute("CREATE TABLE item (code TEXT PRIMARY KEY, qty INTEGER CHECK (qty >= 0))")

    def import_batches(self, batches):
        """All batches in one transaction; a bad batch is rolled back to its savepoint only."""
        report = []
        self.db.execute("BEGIN")
        for i, batch in enumerate(batches):
            self.db.execute(f"SAVEPOINT b{i}")
            try:
                self.db.executemany("INSERT INTO item VALUES (?, ?)", batch)
                self.db.execute(f"RELEASE b{i}")
                report.append(f"batch {i}: ok")
            except sqlite3.IntegrityError as e:
                self.db.execute(f"ROLLBACK TO b{i}")
                self.db.execute(f"RELEASE b{i}")
                report.append(f"batch {i}: skipped ({e})")
        self.db.execute("COMMIT")
        return report


class SavepointTest(unittest.TestCase):
    def test_partial(self):
        imp = Importer()
        report = imp.import_batches([[("a", 1), ("b", 2)], [("c", 3), ("a", 9)], [("d", -1)], [("e", 5)]])
        self.assertEqual(report[0], "batch 0: ok")
        self.assertTrue(report[1].startswith("batch 1: skipped (UNIQUE constraint failed"))
        self.assertEqual(report[2], "batch 2: skipped (CHECK constraint failed: qty >= 0)")
        self.assertEqual(imp.db.execute("SELECT code FROM item ORDER BY code").fetchall(), [("a",), ("b",), ("e",)])


if __name__ == "__main__":
    print("\n".join(Importer().import_batches([[("x", 1)], [("x", 2)]])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
