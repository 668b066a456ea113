# ruff: noqa
import csv
import unittest
from collections import defaultdict
from decimal import Decimal

ROWS = [
    {"date": "2024-01-03", "region": "North", "product": "Widget", "qty": "3", "price": "9.99"},
    {"date": "2024-01-04", "region": "South", "product": "Gadget", "qty": "1", "price": "24.50"},
    {"date": "2024-01-04", "region": "North", "product": "Gadget", "qty": "2", "price": "24.50"},
    {"date": "2024-01-05", "region": "East", "product": "Widget", "qty": "10", "price": "9.99"},
    {"date": "2024-01-06", "region": "South", "product": "Widget", "qty": "4", "price": "9.99"},
]


def write_sales(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["date", "region", "product", "qty", "price"])
        writer.writeheader()
        writer.writerows(rows)


def revenue_by_region(path):
    totals = defaultdict(Decimal)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            totals[row["region"]] += int(row["qty"]) * Decimal(row["price"])
    return dict(sorted(totals.items()))


def write_report(path, totals):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["region", "revenue"])
        for region, amount in totals.items():
            w.writerow([region, f"{amount:.2f}"])


class SalesTests(unittest.TestCase):
    def setUp(self):
        write_sales("sales.csv", ROWS)

    def test_totals(self):
        totals = revenue_by_region("sales.csv")
        self.assertEqual(totals["North"], Decimal("78.97"))
        self.assertEqual(totals["South"], Decimal("64.46"))
        self.assertEqual(totals["East"], Decimal("99.90"))

    def test_report_round_trip(self):
        write_report("report.csv", revenue_by_region("sales.csv"))
        with open("report.csv", newline="") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[0], ["region", "revenue"])
        self.assertEqual([r[0] for r in rows[1:]], ["East", "North", "South"])


if __name__ == "__main__":
    write_sales("sales.csv", ROWS)
    for region, amount in revenue_by_region("sales.csv").items():
        print(f"{region:<6} {amount:>8.2f}")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
