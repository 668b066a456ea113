# inputs: stocks.csv
import pandas as pd

prices = pd.read_csv("/input/stocks.csv", parse_dates=["date"])
prices["ret_pct"] = prices.groupby("ticker")["close"].pct_change().mul(100).round(3)


def best_days(frame, n=3):
    return frame.nlargest(n, "ret_pct")[["date", "close", "ret_pct"]]


top = prices.groupby("ticker", group_keys=True)[["date", "close", "ret_pct"]].apply(best_days)
print("Best three days per ticker")
print(top)
worst = prices.loc[prices.groupby("ticker")["ret_pct"].idxmin(), ["ticker", "date", "ret_pct"]]
print()
print("Worst day per ticker")
print(worst.to_string(index=False))
