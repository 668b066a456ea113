# ruff: noqa
import os
import sqlite3
import unittest

MIGRATIONS = [
    "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
    "ALTER TABLE users ADD COLUMN email TEXT",
    "CREATE UNIQUE INDEX users_email ON users(email)",
    "CREATE TABLE sessions (user_id INTEGER REFERENCES users(id), token TEXT)",
]


def schema_version(conn):
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn, target=None):
    target = len(MIGRATIONS) if target is None else target
    applied = []
    current = schema_version(conn)
    for version in range(current, target):
        with conn:
            conn.execute(MIGRATIONS[version])
            conn.execute(f"PRAGMA user_version = {version + 1}")
        applied.append(version + 1)
    return applied


def tables(conn):
    return [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]


class MigrationTest(unittest.TestCase):
    PATH = "app.db"

    def tearDown(self):
        if os.path.exists(self.PATH):
            os.remove(self.PATH)

    def test_stepwise_on_disk(self):
        conn = sqlite3.connect(self.PATH)
        self.assertEqual(migrate(conn, 2), [1, 2])
        conn.close()
        conn = sqlite3.connect(self.PATH)
        self.assertEqual(schema_version(conn), 2)
        self.assertEqual(migrate(conn), [3, 4])
        self.assertEqual(migrate(conn), [])
        self.assertEqual(tables(conn), ["sessions", "users"])
        conn.close()

    def test_unique_email(self):
        conn = sqlite3.connect(":memory:")
        migrate(conn)
        conn.execute("INSERT INTO users (name, email) VALUES ('a', 'a@x')")
        with self.assertRaises(sqlite3.IntegrityError):
            conn.execute("INSERT INTO users (name, email) VALUES ('b', 'a@x')")

    def test_columns(self):
        conn = sqlite3.connect(":memory:")
        migrate(conn)
        cols = [r[1] for r in conn.execute("PRAGMA table_info(users)")]
        self.assertEqual(cols, ["id", "name", "email"])


if __name__ == "__main__":
    c = sqlite3.connect(":memory:")
    print("applied", migrate(c), "version", schema_version(c), "tables", tables(c))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
