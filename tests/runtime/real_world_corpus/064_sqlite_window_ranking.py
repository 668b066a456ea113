# ruff: noqa
"""Leaderboards with SQLite window functions.

>>> db = sqlite3.connect(":memory:")
>>> load(db, [("ann", "chess", 1820), ("bob", "chess", 1750), ("cy", "chess", 1820),
...           ("ann", "go", 1500), ("dee", "go", 1640), ("bob", "go", 1490)])
6
>>> for row in leaderboard(db):
...     print(*row)
chess ann 1820 1
chess cy 1820 1
chess bob 1750 3
go dee 1640 1
go ann 1500 2
go bob 1490 3
>>> running_totals(db, "go")
[('ann', 1500, 1500), ('bob', 1490, 2990), ('dee', 1640, 4630)]
>>> db.execute("SELECT sqlite_version() >= '3.25'").fetchone()[0]
1
"""
import sqlite3


def load(db, rows):
    db.execute("CREATE TABLE ratings (player TEXT, game TEXT, rating INTEGER)")
    db.executemany("INSERT INTO ratings VALUES (?, ?, ?)", rows)
    return db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]


def leaderboard(db):
    return db.execute(
        """SELECT game, player, rating,
                  RANK() OVER (PARTITION BY game ORDER BY rating DESC) AS pos
           FROM ratings ORDER BY game, pos, player"""
    ).fetchall()


def running_totals(db, game):
    return db.execute(
        """SELECT player, rating, SUM(rating) OVER (ORDER BY player) FROM ratings
           WHERE game = ? ORDER BY player""",
        (game,),
    ).fetchall()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
