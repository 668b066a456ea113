# ruff: noqa
import csv
import unittest
from collections import defaultdict


def pivot(src, dst, row_key, col_key, value_key):
    table = defaultdict(dict)
    cols = set()
    with open(src, newline="") as f:
        for r in csv.DictReader(f):
            table[r[row_key]][r[col_key]] = table[r[row_key]].get(r[col_key], 0) + float(r[value_key])
            cols.add(r[col_key])
    cols = sorted(cols)
    with open(dst, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([row_key] + cols + ["total"])
        for k in sorted(table):
            vals = [table[k].get(c, 0) for c in cols]
            w.writerow([k] + [f"{v:g}" for v in vals] + [f"{sum(vals):g}"])
    return len(table), len(cols)


class PivotTest(unittest.TestCase):
    def setUp(self):
        rows = [("2024-Q1", "north", 10), ("2024-Q1", "south", 5), ("2024-Q2", "north", 7.5),
                ("2024-Q1", "north", 2), ("2024-Q3", "east", 1)]
        with open("long.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["quarter", "region", "amount"])
            w.writerows(rows)

    def test_pivot(self):
        self.assertEqual(pivot("long.csv", "wide.csv", "quarter", "region", "amount"), (3, 3))
        with open("wide.csv", newline="") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows, [
            ["quarter", "east", "north", "south", "total"],
            ["2024-Q1", "0", "12", "5", "17"],
            ["2024-Q2", "0", "7.5", "0", "7.5"],
            ["2024-Q3", "1", "0", "0", "1"],
        ])


if __name__ == "__main__":
    PivotTest("test_pivot").setUp()
    pivot("long.csv", "wide.csv", "region", "quarter", "amount")
    print(open("wide.csv").read().replace("\r\n", "\n"), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
