# inputs: stocks.csv
import pandas as pd

px = pd.read_csv("/input/stocks.csv", parse_dates=["date"])
closes = px.pivot(index="date", columns="ticker", values="close")
rets = closes.pct_change().dropna()
print("daily return correlation:")
print(rets.corr().round(4))
roll = rets["ACME"].rolling(20).corr(rets["GLOBEX"])
print()
print("20-day rolling corr ACME/GLOBEX, last 5:")
print(roll.tail(5).round(4).to_string())
vol = rets.rolling(20).std() * (252 ** 0.5)
print()
print("annualised 20d vol at month ends:")
print(vol.resample("ME").last().round(4))
