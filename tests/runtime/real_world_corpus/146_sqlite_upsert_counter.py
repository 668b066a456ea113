# ruff: noqa
"""Page-view counter with UPSERT, in a database file in a temporary directory.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as d:
...     path = os.path.join(d, "views.db")
...     c = Counter(path)
...     for page in ["/", "/about", "/", "/blog", "/", "/about"]:
...         c.hit(page)
...     c.close()
...     print(Counter(path).top(2))
[('/', 3), ('/about', 2)]
"""
import sqlite3


class Counter:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS views (page TEXT PRIMARY KEY, n INTEGER NOT NULL)")

    def hit(self, page):
        """
        >>> c = Counter(":memory:"); c.hit("/x"); c.hit("/x"); c.top()
        [('/x', 2)]
        """
        with self.db:
            self.db.execute("INSERT INTO views VALUES (?, 1) ON CONFLICT(page) DO UPDATE SET n = n + 1", (page,))

    def top(self, limit=10):
        return self.db.execute("SELECT page, n FROM views ORDER BY n DESC, page LIMIT ?", (limit,)).fetchall()

    def close(self):
        self.db.close()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
