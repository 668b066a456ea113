# inputs: events.jsonl
import pandas as pd

ev = pd.read_json("/input/events.jsonl", lines=True)
print(ev.shape, ev.columns.tolist())
purchases = ev[ev["event"] == "purchase"].copy()
purchases["amount_eur"] = (purchases["amount"] * 0.92).round(2)
purchases["ts"] = pd.to_datetime(purchases["ts"]).dt.strftime("%Y-%m-%dT%H:%M:%SZ")
purchases[["ts", "user", "amount", "amount_eur"]].to_json(
    "purchases.jsonl", orient="records", lines=True
)
back = pd.read_json("purchases.jsonl", lines=True)
print(len(back), "purchases written and read back")
print(back.head(3).to_string(index=False))
print("total:", round(back["amount"].sum(), 2), "EUR", round(back["amount_eur"].sum(), 2))
