# inputs: products.json
import json

import pandas as pd

with open("/input/products.json") as fh:
    raw = json.load(fh)
prod = pd.json_normalize(raw["products"])
summary = (prod.groupby("category")
           .agg(n=("sku", "count"), avg_price=("price", "mean"), in_stock=("in_stock", "sum"))
           .round(2).reset_index())
out = {"source_generated": raw["generated"], "currency": raw["currency"],
       "categories": summary.to_dict(orient="records")}
with open("category_summary.json", "w") as f:
    json.dump(out, f, indent=2)
check = pd.read_json("category_summary.json", typ="series")
print(check["currency"], check["source_generated"])
back = pd.DataFrame(check["categories"])
print(back)
print("matches:", back.equals(summary.astype({"in_stock": "int64"})))
