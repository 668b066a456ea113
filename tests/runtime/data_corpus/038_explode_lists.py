# inputs: products.json
import json

import pandas as pd

with open("/input/products.json") as f:
    payload = json.load(f)

products = pd.DataFrame(payload["products"])
print(f"{len(products)} products, currency {payload['currency']}")
tags = products[["sku", "tags"]].explode("tags").dropna()
print(tags.head(8).to_string(index=False))
print()
print(tags["tags"].value_counts().to_string())
print()
by_cat = products.explode("tags").pivot_table(index="category", columns="tags", values="sku",
                                              aggfunc="count", fill_value=0)
print(by_cat)
dims = pd.json_normalize(payload["products"])[["sku", "dims_cm.w", "dims_cm.h", "dims_cm.d"]]
dims["volume_l"] = (dims["dims_cm.w"] * dims["dims_cm.h"] * dims["dims_cm.d"] / 1000).round(2)
print()
print(dims.nlargest(3, "volume_l").to_string(index=False))
