# ruff: noqa
import sqlite3
import unittest
from datetime import datetime


class Blog:
    def __init__(self):
        self.db = sqlite3.connect(":memory:", detect_types=sqlite3.PARSE_DECLTYPES)
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.executescript(
            """CREATE TABLE posts (id INTEGER PRIMARY KEY, title TEXT, published TEXT);
               CREATE TABLE comments (id INTEGER PRIMARY KEY, post_id INTEGER REFERENCES posts(id) ON DELETE CASCADE,
                                      author TEXT, body TEXT);"""
        )

    def post(self, title, when):
        return self.db.execute("INSERT INTO posts (title, published) VALUES (?, ?)", (title, when.isoformat())).lastrowid

    def comment(self, post_id, author, body):
        self.db.execute("INSERT INTO comments (post_id, author, body) VALUES (?, ?, ?)", (post_id, author, body))

    def summary(self):
        return self.db.execute(
            """SELECT p.title, COUNT(c.id), GROUP_CONCAT(DISTINCT c.author) FROM posts p
               LEFT JOIN comments c ON c.post_id = p.id GROUP BY p.id ORDER BY p.published DESC"""
        ).fetchall()

    def delete(self, post_id):
        self.db.execute("DELETE FROM posts WHERE id = ?", (post_id,))


class BlogTest(unittest.TestCase):
    def setUp(self):
        self.blog = Blog()
        self.a = self.blog.post("Hello", datetime(2024, 1, 1, 9))
        self.b = self.blog.post("Second", datetime(2024, 2, 1, 9))
        self.blog.comment(self.a, "ann", "nice")
        self.blog.comment(self.a, "ann", "again")

    def test_summary(self):
        self.assertEqual(self.blog.summary(), [("Second", 0, None), ("Hello", 2, "ann")])

    def test_cascade(self):
        self.blog.delete(self.a)
        self.assertEqual(self.blog.db.execute("SELECT COUNT(*) FROM comments").fetchone()[0], 0)

    def test_foreign_key(self):
        with self.assertRaises(sqlite3.IntegrityError):
            self.blog.comment(999, "x", "y")


if __name__ == "__main__":
    b = BlogTest("test_summary")
    b.setUp()
    print(b.blog.summary())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
