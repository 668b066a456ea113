# inputs: sales.csv
"""Salesperson-style leaderboard: customers ranked by revenue with percentiles."""

import pandas as pd

s = pd.read_csv("/input/sales.csv")
s["revenue"] = s["units"] * s["unit_price"]
board = s.groupby("customer_id").agg(orders=("order_id", "count"), revenue=("revenue", "sum"))
board["revenue"] = board["revenue"].round(2)
board["rank"] = board["revenue"].rank(ascending=False, method="min").astype(int)
board["percentile"] = (board["revenue"].rank(pct=True) * 100).round(1)
board["tier"] = pd.cut(
    board["percentile"], [0, 50, 80, 95, 100], labels=["bronze", "silver", "gold", "platinum"]
)
board = board.sort_values("rank")
print(board.head(10))
print()
print(board["tier"].value_counts().sort_index().to_string())
board.to_json("leaderboard.json", orient="index", indent=1)
with open("leaderboard.json") as fh:
    print(fh.read()[:200])
