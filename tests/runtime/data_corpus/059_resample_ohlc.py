# inputs: stocks.csv
import pandas as pd

px = pd.read_csv("/input/stocks.csv", parse_dates=["date"])
g = px[px["ticker"] == "GLOBEX"].set_index("date")

weekly = g["close"].resample("W-FRI").ohlc()
weekly["volume"] = g["volume"].resample("W-FRI").sum()
print(weekly.head(8))
monthly = g.resample("ME").agg(
    {"open": "first", "high": "max", "low": "min", "close": "last", "volume": "sum"}
)
monthly["range_pct"] = ((monthly["high"] - monthly["low"]) / monthly["open"] * 100).round(2)
print()
print(monthly)
