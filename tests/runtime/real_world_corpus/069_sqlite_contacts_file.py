# ruff: noqa
import csv
import os
import sqlite3
import tempfile
import unittest


class ContactBook:
    def __init__(self, path):
        self.conn = sqlite3.connect(path)
        self.conn.execute("CREATE TABLE IF NOT EXISTS contacts (name TEXT PRIMARY KEY, phone TEXT, city TEXT)")

    def upsert(self, name, phone, city):
        with self.conn:
            self.conn.execute(
                "INSERT INTO contacts VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET phone=excluded.phone, city=excluded.city",
                (name, phone, city),
            )

    def search(self, text):
        q = "SELECT name, phone FROM contacts WHERE name LIKE ? OR city LIKE ? ORDER BY name"
        return self.conn.execute(q, (f"%{text}%", f"%{text}%")).fetchall()

    def export_csv(self, path):
        rows = self.conn.execute("SELECT * FROM contacts ORDER BY city, name").fetchall()
        with open(path, "w", newline="") as f:
            csv.writer(f).writerows([("name", "phone", "city"), *rows])
        return len(rows)

    def import_csv(self, path):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                self.upsert(row["name"], row["phone"], row["city"])


class ContactTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.book = ContactBook(os.path.join(self.dir.name, "contacts.sqlite3"))
        self.book.upsert("Ann Lee", "555-0101", "Oslo")
        self.book.upsert("Bo Chan", "555-0102", "Lima")
        self.book.upsert("Ann Lee", "555-0199", "Bergen")

    def tearDown(self):
        self.book.conn.close()
        self.dir.cleanup()

    def test_upsert(self):
        self.assertEqual(self.book.search("ann"), [("Ann Lee", "555-0199")])

    def test_search_city(self):
        self.assertEqual(self.book.search("Lim"), [("Bo Chan", "555-0102")])

    def test_csv_round_trip(self):
        out = os.path.join(self.dir.name, "contacts.csv")
        self.assertEqual(self.book.export_csv(out), 2)
        other = ContactBook(":memory:")
        other.import_csv(out)
        self.assertEqual(other.search(""), [("Ann Lee", "555-0199"), ("Bo Chan", "555-0102")])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
