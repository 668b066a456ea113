# inputs: orders.json, customers.csv
import json

import pandas as pd

with open("/input/orders.json", encoding="utf-8") as f:
    orders = json.load(f)

lines = pd.json_normalize(
    orders, record_path="items", meta=["id", "status", ["customer", "id"], ["customer", "tier"]]
)
lines = lines.rename(columns={"customer.id": "customer_id", "customer.tier": "tier"})
lines["line_total"] = lines["qty"] * lines["price"]
print(lines.head(6).to_string(index=False))

customers = pd.read_csv("/input/customers.csv", usecols=["customer_id", "name", "country"])
customers = customers.rename(columns={"name": "customer_name"})
full = lines.merge(customers, on="customer_id", how="left")
valid = full[full["status"] != "cancelled"]
per_country = (
    valid.groupby("country")["line_total"]
    .sum()
    .round(2)
    .sort_values(ascending=False, kind="stable")
)
print()
print(per_country.to_string())
per_tier = valid.pivot_table(
    index="tier", columns="name", values="qty", aggfunc="sum", fill_value=0
)
print()
print("units by tier and item (first 4 items):")
print(per_tier.iloc[:, :4])
