import pandas as pd

df = pd.DataFrame({
    "code": ["US", "DE", "FR", "XX", "US", "JP"],
    "grade": ["A", "C", "B", "A", "F", "B"],
    "amount": [100, 250, 80, 40, 75, 300],
})
country = {"US": "United States", "DE": "Germany", "FR": "France", "JP": "Japan"}
df["country"] = df["code"].map(country).fillna("Unknown")
df["points"] = df["grade"].replace({"A": 4, "B": 3, "C": 2, "F": 0}).astype(int)
df["size"] = df["amount"].map(lambda a: "large" if a >= 200 else "medium" if a >= 80 else "small")
fx = pd.Series({"US": 1.0, "DE": 1.08, "FR": 1.08, "JP": 0.0067})
df["amount_usd"] = (df["amount"] * df["code"].map(fx)).round(2)
print(df.to_string(index=False))
print()
print(df.map(lambda v: len(str(v))).sum().to_dict())
print(df["country"].map(str.upper).str.len().tolist())
