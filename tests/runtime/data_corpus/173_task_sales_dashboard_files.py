# inputs: sales.csv, customers.csv
"""Agent task: a monthly KPI table, written as summary.csv and kpis.json in the working dir."""

import json

import pandas as pd

sales = pd.read_csv("/input/sales.csv", parse_dates=["date"])
customers = pd.read_csv("/input/customers.csv")
df = sales.merge(customers[["customer_id", "segment"]], on="customer_id", how="left")
df["segment"] = df["segment"].fillna("Unknown")
df["revenue"] = df["units"] * df["unit_price"]
df["month"] = df["date"].dt.to_period("M").astype(str)

kpi = df.groupby("month").agg(
    orders=("order_id", "nunique"),
    customers=("customer_id", "nunique"),
    units=("units", "sum"),
    revenue=("revenue", "sum"),
)
kpi["aov"] = kpi["revenue"] / kpi["orders"]
kpi["mom_growth_pct"] = kpi["revenue"].pct_change() * 100
kpi = kpi.round(2)
print(kpi.to_string())
kpi.to_csv("summary.csv")

seg = df.pivot_table(
    index="month", columns="segment", values="revenue", aggfunc="sum", fill_value=0
).round(2)
best_month = kpi["revenue"].idxmax()
out = {
    "period": [kpi.index.min(), kpi.index.max()],
    "total_revenue": round(float(df["revenue"].sum()), 2),
    "best_month": best_month,
    "segment_share_pct": (100 * seg.sum() / seg.sum().sum()).round(1).to_dict(),
}
with open("kpis.json", "w") as f:
    json.dump(out, f, indent=2, sort_keys=True)
print(json.dumps(out, sort_keys=True))
