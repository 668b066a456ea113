# inputs: weather.csv
import pandas as pd

w = pd.read_csv("/input/weather.csv", parse_dates=["date"])
print("missing before:")
print(w.isna().sum().to_string())

w = w.sort_values(["city", "date"])
filled = w.copy()
filled["precip_mm"] = filled["precip_mm"].fillna(0.0)
filled["temp_max_ffill"] = filled.groupby("city")["temp_max"].ffill()
filled["temp_max_interp"] = filled.groupby("city")["temp_max"].transform(lambda s: s.interpolate())
city_mean = filled.groupby("city")["temp_max"].transform("mean")
filled["temp_max_mean"] = filled["temp_max"].fillna(city_mean).round(2)

gaps = filled[filled["temp_max"].isna()][
    ["date", "city", "temp_max_ffill", "temp_max_interp", "temp_max_mean"]
]
print()
print(gaps.head(10).to_string(index=False))
print()
print("missing after (interp):", int(filled["temp_max_interp"].isna().sum()))
