# inputs: sensors.csv
"""Readings were logged in New York local time: localise them across the DST change."""

import pandas as pd

df = pd.read_csv("/input/sensors.csv", parse_dates=["timestamp"])
s1 = df[df["sensor_id"] == "s1"].set_index("timestamp")["value"]

window = s1.loc["2024-03-10 01:00":"2024-03-10 04:00"]
print("naive readings around the spring-forward gap:")
print(window.to_string())

try:
    window.tz_localize("America/New_York")
except Exception as exc:
    print("\nplain tz_localize fails:", type(exc).__name__, exc)

shifted = window.tz_localize("America/New_York", nonexistent="shift_forward")
print("\nshift_forward:")
print(shifted.index.strftime("%Y-%m-%d %H:%M %Z").tolist())
dropped = window.tz_localize("America/New_York", nonexistent="NaT")
print("rows that do not exist locally:", int(dropped.index.isna().sum()))
utc = shifted.tz_convert("UTC")
print("first/last in UTC:", utc.index[0], utc.index[-1])

fall = pd.DatetimeIndex(
    ["2024-11-03 00:30", "2024-11-03 01:30", "2024-11-03 01:30", "2024-11-03 02:30"]
)
print("\nfall back with ambiguous='infer' fails on duplicates? ->", end=" ")
try:
    print(fall.tz_localize("America/New_York", ambiguous="infer").strftime("%H:%M %Z").tolist())
except Exception as exc:
    print(type(exc).__name__)
flags = [False, True, False, False]
print(fall.tz_localize("America/New_York", ambiguous=flags).strftime("%H:%M %Z").tolist())
