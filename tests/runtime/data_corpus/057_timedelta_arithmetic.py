# inputs: orders.json
import pandas as pd

orders = pd.read_json("/input/orders.json")
orders["placed_at"] = pd.to_datetime(orders["placed_at"], utc=True)
orders = orders.sort_values("placed_at").reset_index(drop=True)

gaps = orders["placed_at"].diff()
print("first order:", orders["placed_at"].iloc[0])
print("last order:", orders["placed_at"].iloc[-1])
print("span:", orders["placed_at"].iloc[-1] - orders["placed_at"].iloc[0])
print("mean gap:", gaps.mean().round("s"))
print("median gap:", gaps.median())
print("longest gap:", gaps.max(), "before", orders.loc[gaps.idxmax(), "id"])
sla = pd.Timedelta(hours=48)
orders["due"] = orders["placed_at"] + sla
orders["due_weekday"] = orders["due"].dt.day_name()
print(orders[["id", "placed_at", "due", "due_weekday"]].head(5).to_string(index=False))
print("gaps over 12h:", int((gaps > pd.Timedelta("12h")).sum()))
print("as hours:", (gaps.dropna().dt.total_seconds() / 3600).round(2).head(5).tolist())
