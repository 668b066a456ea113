# inputs: orders.json
import json

import pandas as pd

with open("/input/orders.json") as fh:
    orders = json.load(fh)
flat = pd.json_normalize(orders, sep="_")
print(flat.columns.tolist())
print(
    flat[["id", "customer_id", "customer_tier", "customer_address_city", "coupon"]]
    .head(5)
    .to_string(index=False)
)
items = pd.json_normalize(
    orders,
    record_path=["items"],
    meta=["id", "placed_at", ["customer", "address", "city"]],
    record_prefix="item_",
)
print(items.head(4).to_string(index=False))
print("coupons used:", flat["coupon"].value_counts(dropna=False).to_dict())
print("status counts:", flat["status"].value_counts().to_dict())
city_rev = (
    items.assign(total=items["item_qty"] * items["item_price"])
    .groupby("customer.address.city")["total"]
    .sum()
    .round(2)
    .sort_values(ascending=False, kind="stable")
)
print(city_rev.head(5).to_string())
