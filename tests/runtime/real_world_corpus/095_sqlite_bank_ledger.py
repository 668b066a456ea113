# ruff: noqa
import os
import sqlite3
import tempfile
import unittest


class Ledger:
    def __init__(self, path):
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("CREATE TABLE IF NOT EXISTS accounts (name TEXT PRIMARY KEY, balance INTEGER NOT NULL CHECK (balance >= 0))")

    def open(self, name, cents=0):
        self.conn.execute("INSERT INTO accounts VALUES (?, ?)", (name, cents))

    def transfer(self, src, dst, cents):
        self.conn.execute("BEGIN")
        try:
            self.conn.execute("UPDATE accounts SET balance = balance - ? WHERE name = ?", (cents, src))
            cur = self.conn.execute("UPDATE accounts SET balance = balance + ? WHERE name = ?", (cents, dst))
            if cur.rowcount != 1:
                raise KeyError(dst)
            self.conn.execute("COMMIT")
        except Exception:
            self.conn.execute("ROLLBACK")
            raise

    def balances(self):
        return dict(self.conn.execute("SELECT name, balance FROM accounts ORDER BY name"))


class LedgerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.ledger = Ledger(os.path.join(self.tmp.name, "ledger.db"))
        self.ledger.open("alice", 10_000)
        self.ledger.open("bob", 500)

    def tearDown(self):
        self.ledger.conn.close()
        self.tmp.cleanup()

    def test_transfer(self):
        self.ledger.transfer("alice", "bob", 2_500)
        self.assertEqual(self.ledger.balances(), {"alice": 7_500, "bob": 3_000})

    def test_overdraft_rolls_back(self):
        with self.assertRaises(sqlite3.IntegrityError):
            self.ledger.transfer("bob", "alice", 501)
        self.assertEqual(self.ledger.balances(), {"alice": 10_000, "bob": 500})

    def test_unknown_recipient_rolls_back(self):
        with self.assertRaises(KeyError):
            self.ledger.transfer("alice", "carol", 100)
        self.assertEqual(self.ledger.balances()["alice"], 10_000)


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
