# inputs: weather.csv
"""Descriptive statistics per city, written as a CSV and a JSON summary."""

import json

import pandas as pd

w = pd.read_csv("/input/weather.csv")
w["range"] = w["temp_max"] - w["temp_min"]
stats = w.groupby("city")[["temp_max", "temp_min", "range", "precip_mm"]].agg(
    ["mean", "std", "min", "max"]
)
stats = stats.round(3)
stats.columns = ["_".join(c) for c in stats.columns]
print(stats.T)
stats.to_csv("city_stats.csv")
summary = {
    "cities": sorted(w["city"].unique().tolist()),
    "rows": len(w),
    "skew_temp_max": w.groupby("city")["temp_max"].skew().round(4).to_dict(),
    "kurt_precip": w.groupby("city")["precip_mm"].apply(lambda s: s.kurt()).round(4).to_dict(),
    "sem_temp_min": w.groupby("city")["temp_min"].sem().round(5).to_dict(),
}
with open("summary.json", "w") as f:
    json.dump(summary, f, indent=2, sort_keys=True)
print(json.dumps(summary, sort_keys=True))
