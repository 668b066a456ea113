# inputs: sales.csv, customers.csv
import pandas as pd

sales = pd.read_csv("/input/sales.csv")
customers = pd.read_csv("/input/customers.csv")

merged = sales.merge(
    customers, on="customer_id", how="left", validate="many_to_one", indicator=True
)
print(merged["_merge"].value_counts().to_string())
unknown = sorted(merged.loc[merged["_merge"] == "left_only", "customer_id"].unique())
print("orders from unknown customers:", unknown)

merged["revenue"] = merged["units"] * merged["unit_price"]
by_segment = merged.groupby("segment", dropna=False)["revenue"].sum().round(2)
print()
print(by_segment.to_string())
by_country = (
    merged.dropna(subset=["country"])
    .groupby("country")
    .agg(customers=("customer_id", "nunique"), revenue=("revenue", "sum"))
    .sort_values(["revenue"], ascending=False)
    .round(2)
)
print()
print(by_country)
