# inputs: products.json
import pandas as pd

data = pd.read_json("/input/products.json", typ="series")
prod = pd.DataFrame(data["products"])[["sku", "name", "category", "price", "in_stock"]]
print("3 most expensive:")
print(prod.nlargest(3, "price").to_string(index=False))
print("3 cheapest in stock:")
print(prod[prod["in_stock"]].nsmallest(3, "price").to_string(index=False))
print()
print("most expensive per category:")
top = prod.sort_values("price", ascending=False).groupby("category").head(1).sort_values("category")
print(top.to_string(index=False))
print()
print("price thresholds:", prod["price"].quantile([0.1, 0.5, 0.9]).round(2).tolist())
print("count at or above median:", int((prod["price"] >= prod["price"].median()).sum()))
