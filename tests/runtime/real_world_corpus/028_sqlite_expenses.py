# ruff: noqa
"""Expense tracker on an in-memory SQLite database.

>>> db = open_db()
>>> for row in [("2024-03-01", "food", 12.5), ("2024-03-02", "rent", 800), ("2024-03-02", "food", 7.25),
...             ("2024-04-01", "rent", 800), ("2024-04-03", "travel", 42.1)]:
...     add_expense(db, *row)
>>> monthly_totals(db)
[('2024-03', 819.75), ('2024-04', 842.1)]
>>> by_category(db, "2024-03")
[('rent', 800.0, 1), ('food', 19.75, 2)]
>>> biggest(db)
('2024-03-02', 'rent', 800.0)
"""
import sqlite3


def open_db():
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE expense (day TEXT, category TEXT, amount REAL CHECK (amount > 0))")
    return db


def add_expense(db, day, category, amount):
    """
    >>> add_expense(open_db(), "2024-01-01", "x", -1)
    Traceback (most recent call last):
    ...
    sqlite3.IntegrityError: CHECK constraint failed: amount > 0
    """
    with db:
        db.execute("INSERT INTO expense VALUES (?, ?, ?)", (day, category, amount))


def monthly_totals(db):
    q = "SELECT substr(day, 1, 7) AS month, ROUND(SUM(amount), 2) FROM expense GROUP BY month ORDER BY month"
    return db.execute(q).fetchall()


def by_category(db, month):
    q = """SELECT category, ROUND(SUM(amount), 2) AS total, COUNT(*) FROM expense
           WHERE day LIKE ? || '%' GROUP BY category ORDER BY total DESC"""
    return db.execute(q, (month,)).fetchall()


def biggest(db):
    return db.execute("SELECT day, category, amount FROM expense ORDER BY amount DESC, day LIMIT 1").fetchone()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
