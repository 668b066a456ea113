# inputs: sales.csv
import pandas as pd

sales = pd.read_csv("/input/sales.csv", dtype={"region": "category", "product": "category"})
sales["product"] = sales["product"].cat.add_categories(["Sprocket"])
print("categories:", list(sales["product"].cat.categories))

with_empty = sales.groupby(["region", "product"], observed=False)["units"].sum()
only_seen = sales.groupby(["region", "product"], observed=True)["units"].sum()
print("groups observed=False:", len(with_empty), "observed=True:", len(only_seen))
print(with_empty.unstack().to_string())
print()
print("Sprocket units by region:", with_empty.xs("Sprocket", level="product").to_dict())
print(sales.dtypes.to_string())
