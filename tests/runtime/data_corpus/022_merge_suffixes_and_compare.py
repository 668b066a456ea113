import pandas as pd

old = pd.DataFrame(
    {"sku": ["A1", "B2", "C3", "D4"], "price": [9.99, 14.5, 3.25, 20.0], "stock": [10, 0, 55, 7]}
)
new = pd.DataFrame(
    {"sku": ["A1", "B2", "C3", "E5"], "price": [9.99, 15.25, 2.95, 8.0], "stock": [8, 12, 55, 30]}
)

both = old.merge(new, on="sku", how="outer", suffixes=("_old", "_new"), indicator="where")
both["price_change"] = (both["price_new"] - both["price_old"]).round(2)
both["pct"] = (100 * both["price_change"] / both["price_old"]).round(1)
print(both.to_string(index=False))
print()
print("removed:", both.loc[both["where"] == "left_only", "sku"].tolist())
print("added:", both.loc[both["where"] == "right_only", "sku"].tolist())
common = old.set_index("sku").loc[["A1", "B2", "C3"]]
print()
print(common.compare(new.set_index("sku").loc[["A1", "B2", "C3"]]))
