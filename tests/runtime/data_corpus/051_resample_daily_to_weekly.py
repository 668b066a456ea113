# inputs: weather.csv
import pandas as pd

w = pd.read_csv("/input/weather.csv", parse_dates=["date"])
oslo = w[w["city"] == "Oslo"].set_index("date").sort_index()

weekly = oslo.resample("W-MON").agg({"temp_max": "mean", "temp_min": "min", "precip_mm": "sum"})
print(weekly.head(6).round(2))
monthly = oslo["precip_mm"].resample("MS").sum()
print()
print(monthly.round(1).to_string())
q = oslo["temp_max"].resample("QE").agg(["mean", "max", "min"]).round(2)
print()
print(q)
print("wettest month:", monthly.idxmax().strftime("%B"))
