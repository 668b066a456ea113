# inputs: sales.csv
import pandas as pd

s = pd.read_csv("/input/sales.csv")
print(s["product"].value_counts().to_string())
print()
print(s["product"].value_counts(normalize=True).round(4).to_string())
print()
print(s["units"].value_counts(bins=4, sort=False).to_string())
print()
print(s[["region", "product"]].value_counts().head(6).to_string())
print()
print("least common region:", s["region"].value_counts(ascending=True).index[0])
print("mode of units:", s["units"].mode().tolist())
