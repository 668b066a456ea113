# inputs: sales.csv
import pandas as pd

sales = pd.read_csv("/input/sales.csv", parse_dates=["date"])
sales = sales.eval("revenue = units * unit_price")
big = sales.query("units >= 18 and region in ['North', 'West']")
print(len(big), "big orders in North/West")
print(big[["order_id", "region", "product", "units", "revenue"]].head(5).to_string(index=False))
threshold = 400
print("over threshold:", len(sales.query("revenue > @threshold")))
print("eval sum:", round(sales.eval("units * unit_price").sum(), 2))
print(pd.eval("sales.units.sum() / sales.order_id.count()").round(4))
q2 = sales.query("date >= '2024-04-01' and date < '2024-07-01'")
print("Q2 orders:", len(q2), "Q2 revenue:", round(q2["revenue"].sum(), 2))
print(sales.query("product.str.startswith('G')", engine="python")["product"].unique().tolist())
