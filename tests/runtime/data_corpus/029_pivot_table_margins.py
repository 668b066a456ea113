# inputs: sales.csv
import pandas as pd

sales = pd.read_csv("/input/sales.csv", parse_dates=["date"])
sales["revenue"] = sales["units"] * sales["unit_price"]
sales["month"] = sales["date"].dt.to_period("M")

pt = pd.pivot_table(
    sales,
    index="month",
    columns="region",
    values="revenue",
    aggfunc="sum",
    margins=True,
    margins_name="Total",
).round(0)
print(pt)
print()
units = sales.pivot_table(
    index="product", columns="region", values="units", aggfunc=["sum", "count"]
)
print(units)
