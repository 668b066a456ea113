# inputs: events.jsonl
import pandas as pd

events = pd.read_json("/input/events.jsonl", lines=True)
events["ts"] = pd.to_datetime(events["ts"])
print(events.dtypes.to_string())
print(events.shape)

hourly = events.groupby([pd.Grouper(key="ts", freq="6h"), "event"]).size().unstack(fill_value=0)
print()
print(hourly.head(10))

purchases = events[events["event"] == "purchase"]
daily = purchases.groupby(pd.Grouper(key="ts", freq="D"))["amount"].agg(["count", "sum"]).round(2)
print()
print(daily)
