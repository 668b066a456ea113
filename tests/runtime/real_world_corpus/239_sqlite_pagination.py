# ruff: noqa
"""Keyset pagination over an SQLite table.

>>> db = sqlite3.connect(":memory:")
>>> _ = db.execute("CREATE TABLE article (id INTEGER PRIMARY KEY, title TEXT)")
>>> _ = db.executemany("INSERT INTO article (title) VALUES (?)", [(f"post {i}",) for i in range(1, 12)])
>>> for page in paginate(db, size=4):
...     print([row[0] for row in page])
[1, 2, 3, 4]
[5, 6, 7, 8]
[9, 10, 11]
>>> offset_page(db, page=3, size=5)
[(11, 'post 11')]
"""
import sqlite3


def paginate(db, size):
    last = 0
    while True:
        rows = db.execute("SELECT id, title FROM article WHERE id > ? ORDER BY id LIMIT ?", (last, size)).fetchall()
        if not rows:
            return
        yield rows
        last = rows[-1][0]


def offset_page(db, page, size):
    return db.execute("SELECT id, title FROM article ORDER BY id LIMIT ? OFFSET ?", (size, (page - 1) * size)).fetchall()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
