# inputs: stocks.csv
import pandas as pd

px = pd.read_csv("/input/stocks.csv", parse_dates=["date"])
res = {}
for ticker, g in px.groupby("ticker"):
    close = g.set_index("date")["close"]
    peak = close.expanding().max()
    dd = close / peak - 1
    trough_day = dd.idxmin()
    peak_day = close.loc[:trough_day].idxmax()
    res[ticker] = {
        "max_drawdown_pct": round(dd.min() * 100, 2),
        "peak": peak_day.strftime("%Y-%m-%d"),
        "trough": trough_day.strftime("%Y-%m-%d"),
        "days": (trough_day - peak_day).days,
    }
table = pd.DataFrame(res).T
print(table)
print()
print("deepest:", table["max_drawdown_pct"].astype(float).idxmin())
