# ruff: noqa
import os
import sqlite3
import unittest


def make_db(path):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT)")
    conn.executemany("INSERT OR REPLACE INTO kv VALUES (?, ?)", [("a", "1"), ("b", "2")])
    conn.commit()
    return conn


def backup(conn, dest_path):
    dest = sqlite3.connect(dest_path)
    with dest:
        conn.backup(dest)
    dest.close()
    return os.path.getsize(dest_path)


def dump_sql(conn):
    return [line for line in conn.iterdump() if line.startswith(("CREATE", "INSERT"))]


class BackupTest(unittest.TestCase):
    def test_backup_and_dump(self):
        src = make_db(":memory:")
        self.assertGreater(backup(src, "copy.db"), 0)
        copy = sqlite3.connect("copy.db")
        self.assertEqual(copy.execute("SELECT * FROM kv ORDER BY k").fetchall(), [("a", "1"), ("b", "2")])
        self.assertEqual(dump_sql(copy), ["CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT);",
                                          "INSERT INTO \"kv\" VALUES('a','1');", "INSERT INTO \"kv\" VALUES('b','2');"])
        copy.close()


if __name__ == "__main__":
    print("\n".join(dump_sql(make_db("live.db"))))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
