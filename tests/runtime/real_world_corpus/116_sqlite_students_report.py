# ruff: noqa
import csv
import sqlite3
import unittest

DATA = [("ann", "math", 91), ("ann", "art", 78), ("bob", "math", 65), ("bob", "art", 88), ("cy", "math", 72), ("cy", "art", 95)]


def build(conn):
    conn.execute("CREATE TABLE scores (student TEXT, subject TEXT, score INTEGER)")
    conn.executemany("INSERT INTO scores VALUES (?, ?, ?)", DATA)


def report(conn, path):
    rows = conn.execute(
        """SELECT student, ROUND(AVG(score), 1), MAX(score), 
                  (SELECT subject FROM scores s2 WHERE s2.student = s.student ORDER BY score DESC LIMIT 1)
           FROM scores s GROUP BY student ORDER BY AVG(score) DESC"""
    ).fetchall()
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "average", "best", "best_subject"])
        w.writerows(rows)
    return rows


class ReportTest(unittest.TestCase):
    def test_report(self):
        conn = sqlite3.connect(":memory:")
        build(conn)
        rows = report(conn, "report.csv")
        self.assertEqual(rows[0], ("ann", 84.5, 91, "math"))
        with open("report.csv", newline="") as f:
            back = list(csv.DictReader(f))
        self.assertEqual([r["student"] for r in back], ["ann", "cy", "bob"])
        self.assertEqual(back[2]["best_subject"], "art")


if __name__ == "__main__":
    conn = sqlite3.connect(":memory:")
    build(conn)
    for row in report(conn, "report.csv"):
        print(*row)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
