# inputs: products.json
import pandas as pd

prod = pd.json_normalize(pd.read_json("/input/products.json", typ="series")["products"])
prod["tags_str"] = prod["tags"].str.join(",")
print(prod[["sku", "name", "category", "price", "tags_str"]].head(6).to_string(index=False))
print()
lamps = prod[prod["name"].str.contains("lamp", case=False)]
print("lamps:", lamps["name"].tolist())
eco = prod[prod["tags_str"].str.contains(r"\beco\b", regex=True)]
print("eco-tagged:", len(eco), "avg price", round(eco["price"].mean(), 2))
pro_or_deluxe = prod[prod["name"].str.match(r"(Pro|Deluxe)\b")]
print("premium lines:", pro_or_deluxe.groupby("category").size().to_dict())
prod["word_count"] = prod["name"].str.split().str.len()
prod["kind"] = prod["name"].str.split().str[-1]
print(prod.groupby("kind")["price"].agg(["count", "min", "max"]).round(2))
