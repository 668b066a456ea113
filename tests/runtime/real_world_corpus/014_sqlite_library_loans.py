# ruff: noqa
import os
import sqlite3
import tempfile
import unittest
from datetime import date, timedelta

SCHEMA = """
CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author TEXT NOT NULL);
CREATE TABLE loans (
    book_id INTEGER NOT NULL REFERENCES books(id),
    member TEXT NOT NULL,
    loaned TEXT NOT NULL,
    due TEXT NOT NULL,
    returned TEXT
);
"""


class Library:
    LOAN_DAYS = 14

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.row_factory = sqlite3.Row
        if not self.db.execute("SELECT name FROM sqlite_master WHERE name='books'").fetchone():
            self.db.executescript(SCHEMA)

    def add_book(self, title, author):
        with self.db:
            return self.db.execute("INSERT INTO books (title, author) VALUES (?, ?)", (title, author)).lastrowid

    def lend(self, book_id, member, on):
        if self.db.execute("SELECT 1 FROM loans WHERE book_id=? AND returned IS NULL", (book_id,)).fetchone():
            raise RuntimeError("book already on loan")
        due = on + timedelta(days=self.LOAN_DAYS)
        with self.db:
            self.db.execute(
                "INSERT INTO loans VALUES (?, ?, ?, ?, NULL)", (book_id, member, on.isoformat(), due.isoformat())
            )
        return due

    def give_back(self, book_id, on):
        with self.db:
            self.db.execute("UPDATE loans SET returned=? WHERE book_id=? AND returned IS NULL", (on.isoformat(), book_id))

    def overdue(self, today):
        rows = self.db.execute(
            "SELECT b.title, l.member, l.due FROM loans l JOIN books b ON b.id = l.book_id "
            "WHERE l.returned IS NULL AND l.due < ? ORDER BY l.due",
            (today.isoformat(),),
        )
        return [(r["title"], r["member"], r["due"]) for r in rows]


class LibraryTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "library.db")
        self.lib = Library(self.path)
        self.dune = self.lib.add_book("Dune", "Herbert")
        self.emma = self.lib.add_book("Emma", "Austen")

    def tearDown(self):
        self.lib.db.close()
        self.tmp.cleanup()

    def test_lend_and_due(self):
        self.assertEqual(self.lib.lend(self.dune, "ann", date(2024, 2, 20)), date(2024, 3, 5))

    def test_double_lend(self):
        self.lib.lend(self.dune, "ann", date(2024, 1, 1))
        with self.assertRaises(RuntimeError):
            self.lib.lend(self.dune, "bob", date(2024, 1, 2))

    def test_overdue(self):
        self.lib.lend(self.dune, "ann", date(2024, 1, 1))
        self.lib.lend(self.emma, "bob", date(2024, 1, 10))
        self.assertEqual(self.lib.overdue(date(2024, 1, 20)), [("Dune", "ann", "2024-01-15")])
        self.lib.give_back(self.dune, date(2024, 1, 21))
        self.assertEqual(self.lib.overdue(date(2024, 2, 1)), [("Emma", "bob", "2024-01-24")])

    def test_reopen(self):
        self.lib.db.close()
        self.lib = Library(self.path)
        count = self.lib.db.execute("SELECT COUNT(*) FROM books").fetchone()[0]
        self.assertEqual(count, 2)


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
