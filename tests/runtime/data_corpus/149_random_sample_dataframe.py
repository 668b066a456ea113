# inputs: customers.csv
import pandas as pd

c = pd.read_csv("/input/customers.csv")
print(c.sample(4, random_state=7)[["customer_id", "name", "segment"]].to_string(index=False))
print()
print(c.sample(frac=0.2, random_state=11)["customer_id"].tolist())
weights = c["segment"].map({"Corporate": 3, "Consumer": 1, "Home Office": 1})
picked = c.sample(n=6, weights=weights, random_state=3)
print("weighted pick segments:", picked["segment"].tolist())
boot = c.sample(n=len(c), replace=True, random_state=5)
print("bootstrap unique customers:", boot["customer_id"].nunique())
shuffled = c.sample(frac=1, random_state=2).reset_index(drop=True)
print("shuffled first 5:", shuffled["customer_id"].head().tolist())
