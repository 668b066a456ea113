# inputs: sales.csv
"""Agent task: weekly revenue forecast with a linear trend plus seasonal naive baseline."""

import numpy as np
import pandas as pd

s = pd.read_csv("/input/sales.csv", parse_dates=["date"])
s["revenue"] = s["units"] * s["unit_price"]
weekly = s.set_index("date")["revenue"].resample("W-SUN").sum()
weekly = weekly.iloc[1:-1]
print("weeks:", len(weekly), weekly.index[0].date(), "->", weekly.index[-1].date())
train, test = weekly.iloc[:-4], weekly.iloc[-4:]
t = np.arange(len(train))
slope, intercept = np.polyfit(t, train.to_numpy(), 1)
future_t = np.arange(len(train), len(weekly))
trend_fc = intercept + slope * future_t
naive_fc = np.repeat(train.iloc[-1], 4)
mean_fc = np.repeat(train.tail(4).mean(), 4)
result = pd.DataFrame(
    {
        "actual": test.round(2),
        "trend": np.round(trend_fc, 2),
        "naive": np.round(naive_fc, 2),
        "mean4": np.round(mean_fc, 2),
    },
    index=test.index,
)
print(result)
for col in ["trend", "naive", "mean4"]:
    mae = (result[col] - result["actual"]).abs().mean()
    mape = ((result[col] - result["actual"]).abs() / result["actual"]).mean() * 100
    print(f"{col:<6} MAE {mae:9.2f}  MAPE {mape:6.2f}%")
print(f"trend: {slope:+.3f} per week from {intercept:.2f}")
result.to_csv("forecast.csv", date_format="%Y-%m-%d")
