# ruff: noqa
"""Notes with simple LIKE search and tag filtering (file database in a temp dir).

>>> import tempfile, os
>>> tmp = tempfile.TemporaryDirectory()
>>> db = NoteDB(os.path.join(tmp.name, "notes.db"))
>>> for title, body, tag in [("Groceries", "milk eggs bread", "home"), ("Standup", "blocked on review", "work"),
...                          ("Recipe", "bread with eggs", "home")]:
...     _ = db.add(title, body, tag)
>>> db.search("eggs")
['Groceries', 'Recipe']
>>> db.search("bread", tag="home")
['Groceries', 'Recipe']
>>> db.search("review", tag="home")
[]
>>> db.count_by_tag()
[('home', 2), ('work', 1)]
>>> db.close(); tmp.cleanup()
"""
import sqlite3


class NoteDB:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, title TEXT, body TEXT, tag TEXT)")

    def add(self, title, body, tag):
        with self.db:
            return self.db.execute("INSERT INTO note (title, body, tag) VALUES (?, ?, ?)", (title, body, tag)).lastrowid

    def search(self, text, tag=None):
        sql, params = "SELECT title FROM note WHERE (body LIKE ? OR title LIKE ?)", [f"%{text}%"] * 2
        if tag:
            sql += " AND tag = ?"
            params.append(tag)
        return [r[0] for r in self.db.execute(sql + " ORDER BY title", params)]

    def count_by_tag(self):
        return self.db.execute("SELECT tag, COUNT(*) FROM note GROUP BY tag ORDER BY tag").fetchall()

    def close(self):
        self.db.close()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
