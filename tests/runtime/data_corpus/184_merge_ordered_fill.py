import pandas as pd

prices = pd.DataFrame(
    {"date": pd.to_datetime(["2024-01-01", "2024-01-03", "2024-01-06"]), "price": [10.0, 10.5, 9.8]}
)
trades = pd.DataFrame(
    {
        "date": pd.to_datetime(["2024-01-02", "2024-01-03", "2024-01-05", "2024-01-07"]),
        "qty": [5, 3, 8, 2],
    }
)
ordered = pd.merge_ordered(prices, trades, on="date", fill_method="ffill")
print(ordered)
ordered["value"] = ordered["price"] * ordered["qty"]
print("traded value:", ordered["value"].sum())
by_group = pd.merge_ordered(
    pd.DataFrame({"k": ["a", "c", "e"], "lv": [1, 2, 3]}),
    pd.DataFrame({"k": ["b", "c", "d"], "rv": [10, 20, 30]}),
    on="k",
)
print(by_group)
