# inputs: sensors.csv
import pandas as pd

totals = {}
rows = 0
chunks = 0
for chunk in pd.read_csv("/input/sensors.csv", chunksize=100, parse_dates=["timestamp"]):
    chunks += 1
    rows += len(chunk)
    ok = chunk[chunk["status"] == "ok"]
    for sensor, g in ok.groupby("sensor_id"):
        t = totals.setdefault(sensor, {"n": 0, "sum": 0.0, "max": float("-inf")})
        t["n"] += len(g)
        t["sum"] += g["value"].sum()
        t["max"] = max(t["max"], g["value"].max())
print("chunks:", chunks, "rows:", rows)
for sensor in sorted(totals):
    t = totals[sensor]
    print(f"{sensor}: n={t['n']} mean={t['sum'] / t['n']:.4f} max={t['max']:.3f}")
full = pd.read_csv("/input/sensors.csv")
check = full[full["status"] == "ok"].groupby("sensor_id")["value"].mean().round(4)
print("full-read means:", check.to_dict())
