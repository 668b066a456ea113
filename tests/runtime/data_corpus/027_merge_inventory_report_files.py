"""Join stock levels with reorder rules and write an order proposal as CSV and JSON."""

import json

import pandas as pd

stock = pd.DataFrame(
    {
        "sku": ["K-1", "K-2", "K-3", "K-4", "K-5", "K-6"],
        "warehouse": ["east", "east", "west", "west", "west", "east"],
        "on_hand": [14, 2, 0, 40, 7, 19],
        "daily_demand": [2.5, 1.2, 3.0, 0.5, 1.8, 4.1],
    }
)
rules = pd.DataFrame(
    {
        "sku": ["K-1", "K-2", "K-3", "K-4", "K-5", "K-6"],
        "lead_days": [5, 10, 3, 7, 4, 6],
        "pack_size": [10, 6, 12, 24, 5, 20],
        "unit_cost": [3.2, 11.0, 0.85, 2.4, 7.75, 1.1],
    }
)

df = stock.merge(rules, on="sku")
df["reorder_point"] = (df["daily_demand"] * df["lead_days"]).round(1)
df["needs_order"] = df["on_hand"] <= df["reorder_point"]
shortfall = (df["reorder_point"] * 2 - df["on_hand"]).clip(lower=0)
df["order_qty"] = (
    (shortfall / df["pack_size"]).apply(lambda x: -(-x // 1)) * df["pack_size"]
).astype(int)
df.loc[~df["needs_order"], "order_qty"] = 0
df["order_cost"] = (df["order_qty"] * df["unit_cost"]).round(2)

proposal = df[df["needs_order"]][
    ["sku", "warehouse", "on_hand", "reorder_point", "order_qty", "order_cost"]
]
print(proposal.to_string(index=False))
print("total cost:", round(proposal["order_cost"].sum(), 2))
proposal.to_csv("order_proposal.csv", index=False)
by_wh = proposal.groupby("warehouse")["order_cost"].sum().round(2).to_dict()
with open("order_summary.json", "w") as f:
    json.dump({"by_warehouse": by_wh, "lines": len(proposal)}, f, indent=2, sort_keys=True)
with open("order_summary.json") as fh:
    print(fh.read())
