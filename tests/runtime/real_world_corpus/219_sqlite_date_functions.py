# ruff: noqa
import sqlite3
import unittest
from datetime import date


class SubscriptionsDB:
    def __init__(self):
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE TABLE subs (user TEXT, started TEXT, months INTEGER)")

    def add(self, user, started, months):
        self.db.execute("INSERT INTO subs VALUES (?, ?, ?)", (user, started.isoformat(), months))

    def expiring(self, today, within_days):
        q = """SELECT user, date(started, '+' || months || ' months') AS ends FROM subs
               WHERE ends BETWEEN ? AND date(?, '+' || ? || ' days') ORDER BY ends"""
        return self.db.execute(q, (today.isoformat(), today.isoformat(), within_days)).fetchall()


class DateFuncTest(unittest.TestCase):
    def test_expiring(self):
        s = SubscriptionsDB()
        s.add("ann", date(2024, 1, 15), 6)
        s.add("bob", date(2024, 6, 1), 1)
        s.add("cy", date(2023, 7, 20), 12)
        self.assertEqual(s.expiring(date(2024, 6, 25), 30), [("bob", "2024-07-01"), ("ann", "2024-07-15"), ("cy", "2024-07-20")])

    def test_sqlite_weekday(self):
        db = sqlite3.connect(":memory:")
        self.assertEqual(db.execute("SELECT strftime('%w', '2024-07-04')").fetchone()[0], "4")


if __name__ == "__main__":
    s = SubscriptionsDB()
    s.add("demo", date(2024, 2, 29), 12)
    print(s.expiring(date(2025, 2, 20), 30))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
