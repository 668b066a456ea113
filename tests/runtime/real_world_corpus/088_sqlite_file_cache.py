# ruff: noqa
import json
import os
import sqlite3
import unittest


class DiskCache:
    """A persistent memoisation cache stored in cache.sqlite in the working directory."""

    def __init__(self, path="cache.sqlite"):
        self.conn = sqlite3.connect(path)
        self.conn.execute("CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, value TEXT)")
        self.hits = self.misses = 0

    def memoize(self, func):
        def wrapper(*args):
            key = json.dumps([func.__name__, args])
            row = self.conn.execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
            if row:
                self.hits += 1
                return json.loads(row[0])
            self.misses += 1
            value = func(*args)
            with self.conn:
                self.conn.execute("INSERT INTO cache VALUES (?, ?)", (key, json.dumps(value)))
            return value
        wrapper.__name__ = func.__name__
        return wrapper

    def close(self):
        self.conn.close()


CALLS = []


def slow_square(n):
    CALLS.append(n)
    return {"n": n, "square": n * n}


class CacheTest(unittest.TestCase):
    def setUp(self):
        if os.path.exists("cache.sqlite"):
            os.remove("cache.sqlite")
        CALLS.clear()

    def test_hits_and_persistence(self):
        cache = DiskCache()
        f = cache.memoize(slow_square)
        self.assertEqual([f(3)["square"], f(3)["square"], f(4)["square"]], [9, 9, 16])
        self.assertEqual((cache.hits, cache.misses, CALLS), (1, 2, [3, 4]))
        cache.close()
        again = DiskCache()
        g = again.memoize(slow_square)
        self.assertEqual(g(4), {"n": 4, "square": 16})
        self.assertEqual(again.hits, 1)
        again.close()


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
