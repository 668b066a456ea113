# inputs: weather.csv
import pandas as pd

w = pd.read_csv("/input/weather.csv", parse_dates=["date"])
w["quarter"] = "Q" + w["date"].dt.quarter.astype(str)
w["rainy"] = w["precip_mm"] > 1

table = w.pivot_table(
    index="city",
    columns="quarter",
    values=["temp_max", "temp_min", "rainy"],
    aggfunc={"temp_max": "max", "temp_min": "min", "rainy": "sum"},
)
print(table)
print()
flat = table.copy()
flat.columns = [f"{a}_{b}" for a, b in flat.columns]
print(flat.loc[:, flat.columns.str.startswith("rainy")])
flat.to_csv("city_quarters.csv")
