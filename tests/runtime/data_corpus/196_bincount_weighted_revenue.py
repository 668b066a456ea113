# inputs: sales.csv
import numpy as np
import pandas as pd

s = pd.read_csv("/input/sales.csv", parse_dates=["date"])
revenue = (s["units"] * s["unit_price"]).to_numpy()
weekday = s["date"].dt.dayofweek.to_numpy()
by_day = np.bincount(weekday, weights=revenue, minlength=7)
orders = np.bincount(weekday, minlength=7)
names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
for name, rev, n in zip(names, by_day, orders, strict=True):
    print(f"{name}: {int(n):3d} orders, revenue {rev:9.2f}, avg {rev / n:7.2f}")
units_hist = np.bincount(s["units"].to_numpy())
print("units histogram:", units_hist.tolist())
print("most common units:", int(np.argmax(units_hist)))
codes, regions = pd.factorize(s["region"], sort=True)
print(
    "revenue by region:",
    dict(zip(regions, np.round(np.bincount(codes, weights=revenue), 2).tolist(), strict=True)),
)
