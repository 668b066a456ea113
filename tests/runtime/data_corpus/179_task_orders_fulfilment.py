# inputs: orders.json
"""Agent task: order fulfilment metrics by status and tier, with coupon effects."""

import json

import pandas as pd

with open("/input/orders.json", encoding="utf-8") as fh:
    orders = json.load(fh)
rows = []
for o in orders:
    total = sum(i["qty"] * i["price"] for i in o["items"])
    discount = {"SPRING10": 0.10, "VIP": 0.15}.get(o["coupon"], 0.0)
    rows.append(
        {
            "id": o["id"],
            "placed_at": o["placed_at"],
            "status": o["status"],
            "tier": o["customer"]["tier"],
            "items": sum(i["qty"] for i in o["items"]),
            "gross": total,
            "net": round(total * (1 - discount), 2),
            "coupon": o["coupon"] or "none",
        }
    )
df = pd.DataFrame(rows)
df["placed_at"] = pd.to_datetime(df["placed_at"])
print(
    df.groupby("status")
    .agg(orders=("id", "count"), net=("net", "sum"), avg_items=("items", "mean"))
    .round(2)
)
print()
print(df.pivot_table(index="tier", columns="coupon", values="net", aggfunc="mean").round(2))
print()
df["weekday"] = df["placed_at"].dt.day_name()
busiest = df["weekday"].value_counts()
print("busiest weekday:", busiest.index[0], int(busiest.iloc[0]))
open_orders = df[df["status"].isin(["pending", "shipped"])].sort_values("placed_at")
open_orders[["id", "placed_at", "status", "net"]].to_json(
    "open_orders.json", orient="records", date_format="iso", indent=1
)
print("open orders:", len(open_orders), "value:", round(open_orders["net"].sum(), 2))
