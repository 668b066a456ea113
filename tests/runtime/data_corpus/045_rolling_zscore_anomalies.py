# inputs: sensors.csv
"""Flag anomalies with a rolling z-score per sensor."""
import pandas as pd

df = pd.read_csv("/input/sensors.csv", parse_dates=["timestamp"])
df = df.dropna(subset=["value"]).sort_values(["sensor_id", "timestamp"])

window = 12
grp = df.groupby("sensor_id")["value"]
df["roll_mean"] = grp.transform(lambda v: v.rolling(window, min_periods=6).mean().shift(1))
df["roll_std"] = grp.transform(lambda v: v.rolling(window, min_periods=6).std().shift(1))
df["z"] = (df["value"] - df["roll_mean"]) / df["roll_std"]
anomalies = df[df["z"].abs() > 4].copy()
anomalies["z"] = anomalies["z"].round(2)
print(f"{len(anomalies)} anomalies")
print(anomalies[["timestamp", "sensor_id", "value", "status", "z"]].to_string(index=False))
print()
print("status of flagged rows:", anomalies["status"].value_counts().to_dict())
anomalies[["timestamp", "sensor_id", "value", "z"]].to_csv("anomalies.csv", index=False)
