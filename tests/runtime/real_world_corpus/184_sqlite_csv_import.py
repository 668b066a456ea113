# ruff: noqa
"""Load a CSV into SQLite and query it.

>>> with open("flights.csv", "w", newline="") as f:
...     w = csv.writer(f)
...     w.writerows([["origin", "dest", "minutes", "delay"], ["CDG", "JFK", 495, 12], ["CDG", "LHR", 75, 0],
...                  ["LHR", "JFK", 470, 45], ["CDG", "JFK", 500, -5]])
>>> db = sqlite3.connect(":memory:")
>>> import_csv(db, "flights.csv", "flights")
4
>>> db.execute("SELECT origin, dest, COUNT(*), AVG(delay) FROM flights GROUP BY origin, dest ORDER BY 1, 2").fetchall()
[('CDG', 'JFK', 2, 3.5), ('CDG', 'LHR', 1, 0.0), ('LHR', 'JFK', 1, 45.0)]
>>> db.execute("SELECT typeof(minutes) FROM flights LIMIT 1").fetchone()
('integer',)
"""
import csv
import sqlite3


def import_csv(db, path, table):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [[int(v) if v.lstrip("-").isdigit() else v for v in row] for row in reader]
    db.execute(f"CREATE TABLE {table} ({', '.join(header)})")
    db.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(header))})", rows)
    return len(rows)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
