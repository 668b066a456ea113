# inputs: stocks.csv
import pandas as pd

px = pd.read_csv("/input/stocks.csv", parse_dates=["date"])
px["spread"] = px["high"] - px["low"]
px["ret"] = px.groupby("ticker")["close"].pct_change()
acme = px[px["ticker"] == "ACME"][["close", "volume", "spread", "ret"]].dropna()
print("pearson:")
print(acme.corr().round(4))
print("spearman:")
print(acme.corr(method="spearman").round(4))
print("rank corr close/volume:", round(acme["close"].rank().corr(acme["volume"].rank()), 6))
print("covariance:")
print(acme[["spread", "ret"]].cov().round(8))
print("autocorrelation lag1:", round(acme["ret"].autocorr(lag=1), 6))
