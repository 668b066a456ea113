# inputs: sensors.csv
import pandas as pd

s = pd.read_csv("/input/sensors.csv", parse_dates=["timestamp"])
s = s[s["status"] == "ok"].sort_values(["sensor_id", "timestamp"])

s["smooth"] = (
    s.groupby("sensor_id")["value"].transform(lambda v: v.rolling(4, min_periods=1).mean()).round(3)
)
s["delta"] = s.groupby("sensor_id")["value"].diff().round(3)
print(s.groupby("sensor_id").head(3).to_string(index=False))
print()
stats = s.groupby("sensor_id").agg(
    n=("value", "size"),
    mean=("value", "mean"),
    std=("value", "std"),
    max_jump=("delta", lambda d: d.abs().max()),
)
print(stats.round(4))
