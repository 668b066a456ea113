# inputs: sales.csv
"""Summarise sales by region: revenue, orders and average basket."""
import pandas as pd

df = pd.read_csv("/input/sales.csv", parse_dates=["date"])
df["revenue"] = df["units"] * df["unit_price"]

summary = (
    df.groupby("region")
    .agg(orders=("order_id", "count"), units=("units", "sum"), revenue=("revenue", "sum"))
    .sort_values("revenue", ascending=False)
)
summary["avg_order_value"] = (summary["revenue"] / summary["orders"]).round(2)
summary["revenue"] = summary["revenue"].round(2)
summary["share_pct"] = (100 * summary["revenue"] / summary["revenue"].sum()).round(1)

print("Sales by region")
print(summary.to_string())
print()
print(f"Total revenue: {df['revenue'].sum():,.2f}")
top = summary.index[0]
print(f"Top region: {top} ({summary.loc[top, 'share_pct']}% of revenue)")
summary.to_csv("region_summary.csv")
