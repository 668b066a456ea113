"""Seasonal decomposition, STL and Holt-Winters smoothing with statsmodels (monthly sales, daily
weather)."""
# inputs: weather.csv
import numpy as np
import pandas as pd
from statsmodels.tsa.holtwinters import ExponentialSmoothing, SimpleExpSmoothing
from statsmodels.tsa.seasonal import STL, seasonal_decompose

rng = np.random.default_rng(21)
months = pd.date_range("2019-01-01", periods=72, freq="MS")
pattern = np.array([-8, -6, -2, 1, 4, 7, 9, 8, 4, 0, -5, -9], dtype=float)
sales = pd.Series(200 + 1.2 * np.arange(72) + np.tile(pattern, 6) + rng.normal(0, 2.0, 72),
                  index=months, name="sales")

decomposition = seasonal_decompose(sales, model="additive", period=12)
print("trend (first 3 defined):", decomposition.trend.dropna().head(3).round(3).tolist())
print("seasonal (Jan-Apr):", decomposition.seasonal.head(4).round(3).tolist())
multiplicative = seasonal_decompose(sales, model="multiplicative", period=12)
print("multiplicative July factor:", round(float(multiplicative.seasonal.iloc[6]), 4))

stl = STL(sales, period=12, robust=True).fit()
strength = max(0.0, 1 - stl.resid.var() / (stl.seasonal + stl.resid).var())
print(f"STL seasonal strength: {strength:.4f}")
print("STL trend (last 3):", stl.trend.tail(3).round(3).tolist())

hw = ExponentialSmoothing(sales, trend="add", seasonal="add", seasonal_periods=12,
                          initialization_method="estimated").fit()
print("Holt-Winters next 4 months:", hw.forecast(4).round(1).tolist())
print(f"Holt-Winters SSE per month: {hw.sse / len(sales):.2f}")

weather = pd.read_csv("/input/weather.csv", parse_dates=["date"])
oslo = weather[weather["city"] == "Oslo"].set_index("date")["temp_max"].asfreq("D").interpolate()
ses = SimpleExpSmoothing(oslo, initialization_method="estimated").fit()
print(f"Oslo daily maximum, smoothing alpha: {ses.params['smoothing_level']:.3f}")
print("next 3 days:", ses.forecast(3).round(2).tolist())
