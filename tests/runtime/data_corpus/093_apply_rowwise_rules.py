# inputs: sales.csv
import pandas as pd

sales = pd.read_csv("/input/sales.csv", parse_dates=["date"])


def discount(row):
    rate = 0.0
    if row["units"] >= 15:
        rate += 0.05
    if row["product"] == "Doohickey" and row["date"].month in (5, 6):
        rate += 0.10
    if row["region"] == "West":
        rate += 0.02
    return round(rate, 2)


sales["discount"] = sales.apply(discount, axis=1)
sales["net"] = (sales["units"] * sales["unit_price"] * (1 - sales["discount"])).round(2)
print(sales["discount"].value_counts().sort_index().to_string())
print()
print(sales.groupby("discount")["net"].agg(["count", "sum"]).round(2))
vector = (
    (sales["units"] >= 15) * 0.05
    + ((sales["product"] == "Doohickey") & sales["date"].dt.month.isin([5, 6])) * 0.10
    + (sales["region"] == "West") * 0.02
).round(2)
print("vectorised matches apply:", bool((vector == sales["discount"]).all()))
