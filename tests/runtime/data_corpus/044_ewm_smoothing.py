# inputs: sensors.csv
import pandas as pd

raw = pd.read_csv("/input/sensors.csv", parse_dates=["timestamp"])
s2 = raw[(raw["sensor_id"] == "s2") & (raw["status"] == "ok")].set_index("timestamp")["value"]

smooth = pd.DataFrame({
    "value": s2,
    "ewm_span8": s2.ewm(span=8, adjust=False).mean(),
    "ewm_alpha": s2.ewm(alpha=0.3).mean(),
    "ewm_halflife": s2.ewm(halflife="1h", times=s2.index).mean(),
})
print(smooth.head(10).round(4))
print()
print(smooth.describe().round(3))
vol = s2.ewm(span=12).std()
print()
print("latest ewm std:", round(vol.iloc[-1], 6))
