# inputs: weather.csv
"""Fit a seasonal polynomial to daily temperatures and predict a few days."""
import numpy as np
import pandas as pd

w = pd.read_csv("/input/weather.csv", parse_dates=["date"])
chicago = w[w["city"] == "Chicago"].dropna(subset=["temp_max"])
day = chicago["date"].dt.dayofyear.to_numpy(dtype=float)
temp = chicago["temp_max"].to_numpy()
for degree in (1, 2, 4):
    coef = np.polyfit(day / 365, temp, degree)
    pred = np.polyval(coef, day / 365)
    rmse = np.sqrt(np.mean((temp - pred) ** 2))
    print(f"degree {degree}: rmse {rmse:.4f}")
coef = np.polyfit(day / 365, temp, 4)
for d in (15, 100, 200, 300):
    print(f"day {d:3d}: predicted {np.polyval(coef, d / 365):.3f}")
peak_day = day[np.argmax(np.polyval(coef, day / 365))]
print("fitted peak day-of-year:", int(peak_day))
omega = 2 * np.pi * day / 365
X = np.column_stack([np.ones_like(day), np.cos(omega), np.sin(omega)])
beta = np.linalg.lstsq(X, temp, rcond=None)[0]
print(f"harmonic fit: mean {beta[0]:.4f}, amplitude {np.hypot(beta[1], beta[2]):.4f}")
