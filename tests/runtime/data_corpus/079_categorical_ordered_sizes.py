import pandas as pd

orders = pd.DataFrame({
    "shirt": ["M", "S", "XL", "M", "L", "S", "M", "XS", "L", "M"],
    "price": [20, 18, 24, 20, 22, 18, 21, 17, 23, 19],
})
sizes = pd.CategoricalDtype(["XS", "S", "M", "L", "XL", "XXL"], ordered=True)
orders["shirt"] = orders["shirt"].astype(sizes)

print(orders.sort_values(["shirt", "price"]).to_string(index=False))
print()
print("at least L:", orders.loc[orders["shirt"] >= "L", "shirt"].tolist())
print("counts incl. unused:")
print(orders["shirt"].value_counts(sort=False).to_string())
print("codes:", orders["shirt"].cat.codes.tolist())
print("min/max:", orders["shirt"].min(), orders["shirt"].max())
print(orders.groupby("shirt", observed=True)["price"].mean().to_string())
trimmed = orders["shirt"].cat.remove_unused_categories()
print("used categories:", list(trimmed.cat.categories))
