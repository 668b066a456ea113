# inputs: sales.csv
import pandas as pd

pd.set_option("display.width", 120)

sales = pd.read_csv("/input/sales.csv")
sales["revenue"] = sales.units * sales.unit_price

# Revenue and units per region and product, several statistics at once
stats = sales.groupby(["region", "product"])[["units", "revenue"]].agg(["sum", "mean", "max"])
stats = stats.round(2)
print(stats.head(12))
print()
print("columns:", [" / ".join(c) for c in stats.columns[:4]])

# Best product in every region by revenue
best = (
    sales.groupby(["region", "product"], as_index=False)["revenue"].sum()
    .sort_values(["region", "revenue"], ascending=[True, False])
    .groupby("region")
    .head(1)
)
best["revenue"] = best["revenue"].round(2)
print()
print(best.to_string(index=False))
