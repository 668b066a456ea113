# inputs: sensors.csv
import pandas as pd

df = pd.read_csv("/input/sensors.csv", parse_dates=["timestamp"])
expected = pd.date_range(df["timestamp"].min(), df["timestamp"].max(), freq="15min")
report = []
for sensor, g in df.groupby("sensor_id"):
    present = pd.DatetimeIndex(g["timestamp"])
    missing = expected.difference(present)
    errors = g["value"].isna().sum()
    report.append(
        {
            "sensor": sensor,
            "expected": len(expected),
            "rows": len(g),
            "missing_slots": len(missing),
            "error_values": int(errors),
            "first_gap": missing[0].strftime("%m-%d %H:%M") if len(missing) else "-",
        }
    )
rep = pd.DataFrame(report).set_index("sensor")
rep["completeness_pct"] = (100 * (rep["rows"] - rep["error_values"]) / rep["expected"]).round(2)
print(rep)
full = df.pivot_table(index="timestamp", columns="sensor_id", values="value").reindex(expected)
print()
print("slots with all sensors present:", int(full.notna().all(axis=1).sum()), "of", len(full))
filled = full.interpolate(limit=2)
print("still missing after interpolate(limit=2):", filled.isna().sum().to_dict())
