import pandas as pd

df = pd.DataFrame(
    {
        " Revenue (USD) ": [100, 200],
        "Units Sold": [3, 5],
        "avg-price": [33.3, 40.0],
        "Region Name": ["N", "S"],
    }
)
print("before:", list(df.columns))
df.columns = (
    df.columns.str.strip().str.lower().str.replace(r"[^a-z0-9]+", "_", regex=True).str.strip("_")
)
print("after:", list(df.columns))
print(df)
idx = pd.Index(["item_a", "item_b", "promo_x", "item_c"])
print("startswith item:", idx[idx.str.startswith("item")].tolist())
print("upper:", idx.str.upper().tolist())
renamed = df.rename(columns=lambda c: c.replace("_usd", ""))
print(renamed.columns.tolist())
