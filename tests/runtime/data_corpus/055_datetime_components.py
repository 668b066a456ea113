# inputs: events.jsonl
import pandas as pd

ev = pd.read_json("/input/events.jsonl", lines=True)
ev["ts"] = pd.to_datetime(ev["ts"], utc=True)
ev["local"] = ev["ts"].dt.tz_convert("America/Los_Angeles")
ev["date"] = ev["local"].dt.date
ev["hour"] = ev["local"].dt.hour
ev["dow"] = ev["local"].dt.dayofweek
ev["is_weekend"] = ev["dow"] >= 5
ev["week"] = ev["local"].dt.isocalendar().week

print(ev[["ts", "local", "hour", "dow"]].head(5).to_string(index=False))
print()
print("events per local date:")
print(ev.groupby("date").size().to_string())
print()
print("busiest local hour:", ev["hour"].value_counts().idxmax())
print("ISO weeks:", sorted(ev["week"].unique().tolist()))
print("weekend share:", round(ev["is_weekend"].mean(), 4))
print("month names:", ev["local"].dt.month_name().unique().tolist())
