# ruff: noqa
"""A tiny todo list stored in SQLite."""
import sqlite3
import unittest


class TodoStore:
    def __init__(self, path=":memory:"):
        self.conn = sqlite3.connect(path)
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS todos ("
            "id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, "
            "done INTEGER NOT NULL DEFAULT 0, priority INTEGER NOT NULL DEFAULT 2)"
        )

    def add(self, title, priority=2):
        cur = self.conn.execute(
            "INSERT INTO todos (title, priority) VALUES (?, ?)", (title, priority)
        )
        self.conn.commit()
        return cur.lastrowid

    def complete(self, todo_id):
        cur = self.conn.execute("UPDATE todos SET done = 1 WHERE id = ?", (todo_id,))
        self.conn.commit()
        return cur.rowcount == 1

    def pending(self):
        rows = self.conn.execute(
            "SELECT id, title FROM todos WHERE done = 0 ORDER BY priority, id"
        )
        return rows.fetchall()

    def close(self):
        self.conn.close()


class TodoStoreTest(unittest.TestCase):
    def setUp(self):
        self.store = TodoStore()

    def tearDown(self):
        self.store.close()

    def test_add_and_list(self):
        self.store.add("write report", priority=1)
        self.store.add("buy milk", priority=3)
        self.store.add("call bob")
        self.assertEqual(
            [t for _, t in self.store.pending()], ["write report", "call bob", "buy milk"]
        )

    def test_complete(self):
        tid = self.store.add("task")
        self.assertTrue(self.store.complete(tid))
        self.assertFalse(self.store.complete(999))
        self.assertEqual(self.store.pending(), [])

    def test_persist_to_file(self):
        store = TodoStore("todos.db")
        store.add("persisted")
        store.close()
        again = TodoStore("todos.db")
        self.assertEqual(again.pending(), [(1, "persisted")])
        again.close()


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
