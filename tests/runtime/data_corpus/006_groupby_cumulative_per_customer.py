# inputs: sales.csv
import pandas as pd

sales = pd.read_csv("/input/sales.csv", parse_dates=["date"]).sort_values(
    ["customer_id", "date", "order_id"]
)
sales["revenue"] = (sales["units"] * sales["unit_price"]).round(2)

g = sales.groupby("customer_id")
sales["order_no"] = g.cumcount() + 1
sales["lifetime_value"] = g["revenue"].cumsum().round(2)
sales["days_since_prev"] = g["date"].diff().dt.days

repeat = sales[sales["order_no"] > 1]
print("Orders from repeat purchases:", len(repeat))
print("Median days between purchases:", repeat["days_since_prev"].median())
print()

first_orders = g.first()[["date", "product"]].rename(
    columns={"date": "first_date", "product": "first_product"}
)
ltv = g["revenue"].sum().round(2).rename("ltv")
cust = first_orders.join(ltv).sort_values("ltv", ascending=False)
print(cust.head(8))
print()
print(
    sales[sales.customer_id == "C005"][
        ["date", "product", "revenue", "order_no", "lifetime_value"]
    ].to_string(index=False)
)
