# ruff: noqa
import csv
import json
import os
import unittest


def orders_to_customers(csv_path, json_path):
    customers = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            c = customers.setdefault(row["customer"], {"orders": [], "total": 0.0})
            c["orders"].append(row["order_id"])
            c["total"] = round(c["total"] + float(row["amount"]), 2)
    with open(json_path, "w") as f:
        json.dump(customers, f, indent=2, sort_keys=True)
    return len(customers)


def top_customer(json_path):
    with open(json_path) as f:
        data = json.load(f)
    return max(sorted(data), key=lambda k: data[k]["total"])


class OrdersTest(unittest.TestCase):
    def setUp(self):
        os.makedirs("exports", exist_ok=True)
        with open("exports/orders.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["order_id", "customer", "amount"])
            w.writerows([["o1", "ann", "19.99"], ["o2", "bob", "5.00"], ["o3", "ann", "0.01"], ["o4", "cy", "20.00"]])

    def test_report(self):
        self.assertEqual(orders_to_customers("exports/orders.csv", "exports/customers.json"), 3)
        with open("exports/customers.json") as f:
            self.assertEqual(json.load(f)["ann"], {"orders": ["o1", "o3"], "total": 20.0})
        self.assertEqual(top_customer("exports/customers.json"), "ann")


if __name__ == "__main__":
    OrdersTest("test_report").setUp()
    orders_to_customers("exports/orders.csv", "customers.json")
    print(open("customers.json").read())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
