# ruff: noqa
"""sqlite3.Row access by index and name, and executemany from dataclasses.

>>> db = make_db()
>>> row = db.execute("SELECT * FROM city WHERE name = 'Lyon'").fetchone()
>>> row["population"], row[0], row.keys()
(522250, 'Lyon', ['name', 'country', 'population'])
>>> [dict(r) for r in db.execute("SELECT country, SUM(population) AS total FROM city GROUP BY country ORDER BY total DESC")]
[{'country': 'FR', 'total': 2655167}, {'country': 'BE', 'total': 1403574}]
>>> largest(db, "FR")
'Paris'
"""
import sqlite3
from dataclasses import dataclass, astuple


@dataclass
class City:
    name: str
    country: str
    population: int


CITIES = [City("Paris", "FR", 2132917), City("Lyon", "FR", 522250), City("Brussels", "BE", 1208542), City("Ghent", "BE", 195032)]


def make_db():
    db = sqlite3.connect(":memory:")
    db.row_factory = sqlite3.Row
    db.execute("CREATE TABLE city (name TEXT, country TEXT, population INTEGER)")
    db.executemany("INSERT INTO city VALUES (?, ?, ?)", map(astuple, CITIES))
    return db


def largest(db, country):
    return db.execute("SELECT name FROM city WHERE country = ? ORDER BY population DESC", (country,)).fetchone()["name"]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
