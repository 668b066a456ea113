# inputs: events.jsonl
"""Count events per local calendar day in several time zones (same instants, different days)."""
import pandas as pd

ev = pd.read_json("/input/events.jsonl", lines=True)
ts = pd.to_datetime(ev["ts"], utc=True)
zones = ["UTC", "Asia/Tokyo", "America/Chicago", "Europe/London"]
table = {}
for zone in zones:
    local = ts.dt.tz_convert(zone)
    table[zone] = local.dt.strftime("%Y-%m-%d").value_counts().sort_index()
counts = pd.DataFrame(table).fillna(0).astype(int)
print(counts)
print()
idx = pd.DatetimeIndex(ts).tz_convert("Asia/Tokyo")
hourly = pd.Series(1, index=idx).resample("12h").sum()
print(hourly.to_string())
print()
london = pd.date_range("2024-03-30", "2024-04-01", freq="D", tz="Europe/London")
print("London midnights:", [str(t) for t in london])
print("hours in 2024-03-31 London:", (london[2] - london[1]) / pd.Timedelta("1h"))
