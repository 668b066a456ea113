# inputs: events.jsonl
import pandas as pd

ev = pd.read_json("/input/events.jsonl", lines=True, dtype={"user": "string"})
ev["ts"] = pd.to_datetime(ev["ts"])
ev = ev.set_index("ts").sort_index()

hourly_users = ev.resample("h")["user"].nunique()
print("hours observed:", len(hourly_users))
print("max distinct users in an hour:", hourly_users.max(), "at", hourly_users.idxmax())
sessions = ev.groupby("user").resample("D")["duration_ms"].sum()
top = sessions.groupby(level="user").sum().nlargest(5)
print()
print("top users by total duration (s):")
print((top / 1000).round(1).to_string())
print()
first_purchase = ev[ev["event"] == "purchase"].reset_index().groupby("user")["ts"].min()
signup = ev[ev["event"] == "signup"].reset_index().groupby("user")["ts"].min()
lag = (first_purchase - signup).dropna()
print("users with signup and purchase:", len(lag))
print(lag[lag > pd.Timedelta(0)].sort_values().head(3).to_string())
