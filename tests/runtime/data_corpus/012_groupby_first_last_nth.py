# inputs: stocks.csv
import pandas as pd

px = pd.read_csv("/input/stocks.csv", parse_dates=["date"])
px = px.sort_values(["ticker", "date"])
g = px.groupby("ticker")

first = g.first()[["date", "close"]]
last = g.last()[["date", "close"]]
perf = pd.DataFrame({
    "start": first["date"].dt.strftime("%Y-%m-%d"),
    "end": last["date"].dt.strftime("%Y-%m-%d"),
    "first_close": first["close"],
    "last_close": last["close"],
})
perf["return_pct"] = ((perf["last_close"] / perf["first_close"] - 1) * 100).round(2)
print(perf)
print()
print("10th trading day of each ticker:")
print(g.nth(9)[["ticker", "date", "close"]].to_string(index=False))
print()
print("Highest high per ticker:")
print(g["high"].max().to_string())
print("Total volume (millions):")
print((g["volume"].sum() / 1e6).round(3).to_string())
