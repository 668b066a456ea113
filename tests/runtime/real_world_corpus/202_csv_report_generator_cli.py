# ruff: noqa
import argparse
import csv
import json
import os
import unittest


def generate(argv):
    p = argparse.ArgumentParser(prog="report")
    p.add_argument("--input", default="data/raw/orders.csv")
    p.add_argument("--outdir", default="data/reports")
    p.add_argument("--by", default="customer")
    a = p.parse_args(argv)
    os.makedirs(a.outdir, exist_ok=True)
    totals = {}
    with open(a.input, newline="") as f:
        for row in csv.DictReader(f):
            totals[row[a.by]] = totals.get(row[a.by], 0) + int(row["qty"]) * float(row["unit"])
    out_csv = os.path.join(a.outdir, f"by_{a.by}.csv")
    with open(out_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([a.by, "total"])
        for k in sorted(totals):
            w.writerow([k, f"{totals[k]:.2f}"])
    with open(os.path.join(a.outdir, f"by_{a.by}.json"), "w") as f:
        json.dump({k: round(v, 2) for k, v in sorted(totals.items())}, f)
    return sorted(os.listdir(a.outdir))


def seed():
    os.makedirs("data/raw", exist_ok=True)
    with open("data/raw/orders.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["customer", "product", "qty", "unit"])
        w.writerows([["acme", "bolt", 10, 0.25], ["zeta", "nut", 4, 0.1], ["acme", "gear", 1, 12.5]])


class ReportCliTest(unittest.TestCase):
    def test_generate(self):
        seed()
        self.assertEqual(generate([]), ["by_customer.csv", "by_customer.json"])
        with open("data/reports/by_customer.csv", newline="") as f:
            self.assertEqual(list(csv.reader(f))[1:], [["acme", "15.00"], ["zeta", "0.40"]])
        self.assertEqual(generate(["--by", "product"])[-1], "by_product.json")
        with open("data/reports/by_product.json") as f:
            self.assertEqual(json.load(f), {"bolt": 2.5, "gear": 12.5, "nut": 0.4})


if __name__ == "__main__":
    seed()
    print(generate(["--outdir", "out"]))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
