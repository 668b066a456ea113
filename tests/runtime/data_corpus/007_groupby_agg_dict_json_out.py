"""Aggregate orders per category and write the report as JSON."""

import json

import pandas as pd

orders = pd.DataFrame(
    {
        "category": ["books", "toys", "books", "games", "toys", "books", "games", "toys"],
        "price": [12.0, 25.5, 8.75, 59.99, 14.0, 22.1, 39.5, 9.99],
        "qty": [3, 1, 5, 1, 2, 1, 2, 4],
        "returned": [False, False, True, False, True, False, False, False],
    }
)
orders["amount"] = orders["price"] * orders["qty"]

report = orders.groupby("category").agg(
    {"amount": ["sum", "mean"], "qty": "sum", "returned": "mean"}
)
report.columns = ["amount_sum", "amount_mean", "qty", "return_rate"]
report = report.round(3)
print(report)

records = report.reset_index().to_dict(orient="records")
with open("category_report.json", "w") as f:
    json.dump({"currency": "USD", "categories": records}, f, indent=2)

with open("category_report.json") as f:
    back = json.load(f)
print()
print("categories in file:", [c["category"] for c in back["categories"]])
print("largest amount:", max(back["categories"], key=lambda c: c["amount_sum"])["category"])
