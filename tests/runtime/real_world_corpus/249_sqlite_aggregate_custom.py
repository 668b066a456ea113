# ruff: noqa
import math
import sqlite3
import unittest


class GeoMean:
    def __init__(self):
        self.log_sum, self.n = 0.0, 0

    def step(self, value):
        if value is not None and value > 0:
            self.log_sum += math.log(value)
            self.n += 1

    def finalize(self):
        return round(math.exp(self.log_sum / self.n), 4) if self.n else None


def make_db():
    db = sqlite3.connect(":memory:")
    db.create_aggregate("geomean", 1, GeoMean)
    db.create_function("slug", 1, lambda s: "-".join(s.lower().split()), deterministic=True)
    db.execute("CREATE TABLE returns (fund TEXT, growth REAL)")
    db.executemany("INSERT INTO returns VALUES (?, ?)", [("Alpha Fund", 1.10), ("Alpha Fund", 0.95), ("Alpha Fund", 1.20), ("Beta Fund", 1.02), ("Beta Fund", 1.04)])
    return db


class CustomFunctionTest(unittest.TestCase):
    def test_geomean(self):
        rows = make_db().execute("SELECT slug(fund), geomean(growth) FROM returns GROUP BY fund ORDER BY fund").fetchall()
        self.assertEqual(rows, [("alpha-fund", 1.0784), ("beta-fund", 1.03)])


if __name__ == "__main__":
    print(make_db().execute("SELECT geomean(growth) FROM returns").fetchone()[0])
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
