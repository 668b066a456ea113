"""Parse dates written in many formats, the way messy exports look."""

import pandas as pd

raw = pd.Series(
    ["2024-03-05", "05/03/2024", "March 7, 2024", "2024.03.08", "20240309", "not a date", None]
)
iso = pd.to_datetime(raw, format="%Y-%m-%d", errors="coerce")
print("strict ISO:", iso.dt.strftime("%Y-%m-%d").tolist())
mixed = pd.to_datetime(raw, format="mixed", dayfirst=True, errors="coerce")
print("mixed, dayfirst:", mixed.dt.strftime("%Y-%m-%d").tolist())

epochs = pd.Series([1700000000, 1710000000, 1720000000])
print("from epoch s:", pd.to_datetime(epochs, unit="s").dt.strftime("%Y-%m-%d %H:%M:%S").tolist())
print("from epoch ms:", pd.to_datetime(epochs * 1000, unit="ms").iloc[0])

parts = pd.DataFrame({"year": [2023, 2024], "month": [12, 2], "day": [31, 29], "hour": [23, 6]})
print("from parts:", pd.to_datetime(parts).tolist())

excel = pd.Series([45000, 45292.5])
print("excel serials:", (pd.Timestamp("1899-12-30") + pd.to_timedelta(excel, unit="D")).tolist())
print("period:", pd.Period("2024-02", freq="M").days_in_month, "days in Feb 2024")
