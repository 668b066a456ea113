# ruff: noqa
import sqlite3
import unittest
from dataclasses import dataclass, astuple, fields


@dataclass
class Book:
    isbn: str
    title: str
    year: int
    available: bool = True


class BookRepository:
    def __init__(self, conn):
        self.conn = conn
        cols = ", ".join(f"{f.name} {'INTEGER' if f.type in (int, bool) else 'TEXT'}" for f in fields(Book))
        conn.execute(f"CREATE TABLE IF NOT EXISTS book ({cols}, PRIMARY KEY (isbn))")

    def save(self, book):
        names = [f.name for f in fields(Book)]
        self.conn.execute(f"INSERT OR REPLACE INTO book ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})", astuple(book))

    def get(self, isbn):
        row = self.conn.execute("SELECT * FROM book WHERE isbn = ?", (isbn,)).fetchone()
        return Book(row[0], row[1], row[2], bool(row[3])) if row else None

    def find(self, **criteria):
        where = " AND ".join(f"{k} = ?" for k in criteria) or "1"
        rows = self.conn.execute(f"SELECT * FROM book WHERE {where} ORDER BY year", tuple(criteria.values()))
        return [Book(r[0], r[1], r[2], bool(r[3])) for r in rows]


class RepoTest(unittest.TestCase):
    def setUp(self):
        self.repo = BookRepository(sqlite3.connect(":memory:"))
        for b in [Book("111", "SICP", 1985), Book("222", "TAOCP", 1968, False), Book("333", "CLRS", 1990)]:
            self.repo.save(b)

    def test_get(self):
        self.assertEqual(self.repo.get("222"), Book("222", "TAOCP", 1968, False))
        self.assertIsNone(self.repo.get("999"))

    def test_find(self):
        self.assertEqual([b.title for b in self.repo.find(available=True)], ["SICP", "CLRS"])
        self.assertEqual(len(self.repo.find()), 3)

    def test_update(self):
        self.repo.save(Book("111", "SICP 2e", 1996))
        self.assertEqual(self.repo.get("111").title, "SICP 2e")


if __name__ == "__main__":
    t = RepoTest("test_get")
    t.setUp()
    print(t.repo.find())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
