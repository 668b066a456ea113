# ruff: noqa
"""Monthly stock valuation from an SQLite database kept in the working directory.

>>> db = setup("stock.sqlite")
>>> valuation(db)
[('electronics', 3, 1799.5), ('tools', 2, 129.0)]
>>> low(db, 5)
['cable', 'drill']
>>> db.close()
>>> import os; os.path.getsize("stock.sqlite") > 0
True
"""
import sqlite3


def setup(path):
    db = sqlite3.connect(path)
    db.executescript(
        """DROP TABLE IF EXISTS item;
           CREATE TABLE item (name TEXT, category TEXT, qty INTEGER, unit_cost REAL);
           INSERT INTO item VALUES ('phone', 'electronics', 5, 299.5), ('cable', 'electronics', 3, 4.0),
                                   ('charger', 'electronics', 10, 29.0), ('drill', 'tools', 1, 89.0), ('saw', 'tools', 8, 5.0);"""
    )
    return db


def valuation(db):
    return db.execute("SELECT category, COUNT(*), ROUND(SUM(qty * unit_cost), 2) FROM item GROUP BY category ORDER BY category").fetchall()


def low(db, threshold):
    return [r[0] for r in db.execute("SELECT name FROM item WHERE qty < ? ORDER BY name", (threshold,))]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
