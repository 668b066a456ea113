# inputs: weather.csv
import pandas as pd

w = pd.read_csv("/input/weather.csv", parse_dates=["date"])
w["month"] = w["date"].dt.month
monthly = w.groupby(["city", "month"])["temp_max"].mean().round(1)
print(monthly.head(6))
print()
table = monthly.unstack("city")
print(table)
print()
print("Warmest month per city:")
print(table.idxmax().to_string())
print("Annual precipitation (mm):")
print(w.groupby("city")["precip_mm"].sum().round(1).to_string())
