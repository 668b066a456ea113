# inputs: sensors.csv
"""Agent task: daily min/mean/max per sensor with uptime, written as CSV and printed."""
import pandas as pd

df = pd.read_csv("/input/sensors.csv", parse_dates=["timestamp"])
df["day"] = df["timestamp"].dt.date
ok = df[df["status"] == "ok"]
daily = ok.groupby(["sensor_id", "day"])["value"].agg(["min", "mean", "max", "count"])
daily["uptime_pct"] = (100 * daily["count"] / 96).round(1)
daily = daily.round(3)
print(daily)
daily.to_csv("daily_sensor_report.csv")
issues = df[df["status"] != "ok"].groupby(["sensor_id", "status"]).size().unstack(fill_value=0)
print()
print(issues)
