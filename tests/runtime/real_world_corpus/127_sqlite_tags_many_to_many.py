# ruff: noqa
import sqlite3
import unittest


class Bookmarks:
    def __init__(self):
        self.db = sqlite3.connect(":memory:")
        self.db.executescript(
            """CREATE TABLE bookmark (id INTEGER PRIMARY KEY, url TEXT UNIQUE);
               CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
               CREATE TABLE bookmark_tag (bookmark_id INTEGER, tag_id INTEGER, PRIMARY KEY (bookmark_id, tag_id));"""
        )

    def add(self, url, *tags):
        cur = self.db.execute("INSERT OR IGNORE INTO bookmark (url) VALUES (?)", (url,))
        bid = self.db.execute("SELECT id FROM bookmark WHERE url = ?", (url,)).fetchone()[0]
        for t in tags:
            self.db.execute("INSERT OR IGNORE INTO tag (name) VALUES (?)", (t.lower(),))
            tid = self.db.execute("SELECT id FROM tag WHERE name = ?", (t.lower(),)).fetchone()[0]
            self.db.execute("INSERT OR IGNORE INTO bookmark_tag VALUES (?, ?)", (bid, tid))
        return bid

    def with_all_tags(self, *tags):
        q = f"""SELECT b.url FROM bookmark b JOIN bookmark_tag bt ON bt.bookmark_id = b.id JOIN tag t ON t.id = bt.tag_id
                WHERE t.name IN ({','.join('?' * len(tags))}) GROUP BY b.id HAVING COUNT(DISTINCT t.name) = ? ORDER BY b.url"""
        return [r[0] for r in self.db.execute(q, (*[t.lower() for t in tags], len(tags)))]

    def tag_cloud(self):
        return self.db.execute(
            "SELECT t.name, COUNT(*) FROM tag t JOIN bookmark_tag bt ON bt.tag_id = t.id GROUP BY t.name ORDER BY COUNT(*) DESC, t.name"
        ).fetchall()


class BookmarkTest(unittest.TestCase):
    def setUp(self):
        self.b = Bookmarks()
        self.b.add("https://docs.python.org", "python", "docs")
        self.b.add("https://sqlite.org", "SQL", "docs")
        self.b.add("https://pypi.org", "python")
        self.b.add("https://docs.python.org", "reference")

    def test_all_tags(self):
        self.assertEqual(self.b.with_all_tags("python", "docs"), ["https://docs.python.org"])
        self.assertEqual(self.b.with_all_tags("PYTHON"), ["https://docs.python.org", "https://pypi.org"])

    def test_cloud(self):
        self.assertEqual(self.b.tag_cloud(), [("docs", 2), ("python", 2), ("reference", 1), ("sql", 1)])


if __name__ == "__main__":
    t = BookmarkTest("test_cloud")
    t.setUp()
    print(t.b.tag_cloud())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
