# ruff: noqa
import os
import sqlite3
import tempfile
import unittest


class TwoConnectionsTest(unittest.TestCase):
    """Writes committed on one connection are visible to another on the same file."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "shared.db")

    def tearDown(self):
        self.tmp.cleanup()

    def test_visibility(self):
        writer = sqlite3.connect(self.path)
        reader = sqlite3.connect(self.path)
        writer.execute("CREATE TABLE t (x INTEGER)")
        writer.commit()
        writer.execute("INSERT INTO t VALUES (1)")
        self.assertEqual(reader.execute("SELECT COUNT(*) FROM t").fetchone()[0], 0)
        writer.commit()
        self.assertEqual(reader.execute("SELECT COUNT(*) FROM t").fetchone()[0], 1)
        writer.close()
        reader.close()

    def test_rollback(self):
        conn = sqlite3.connect(self.path)
        conn.execute("CREATE TABLE t (x INTEGER)")
        conn.commit()
        conn.execute("INSERT INTO t VALUES (5)")
        conn.rollback()
        self.assertEqual(conn.execute("SELECT COUNT(*) FROM t").fetchone()[0], 0)
        conn.close()


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
