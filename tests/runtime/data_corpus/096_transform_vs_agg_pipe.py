import numpy as np
import pandas as pd


def add_ratio(df, num, den, name):
    return df.assign(**{name: (df[num] / df[den]).round(4)})


def top_k(df, col, k):
    return df.nlargest(k, col)


rng = np.random.default_rng(99)
df = pd.DataFrame({
    "campaign": [f"cmp{i:02d}" for i in range(12)],
    "channel": rng.choice(["email", "search", "social"], 12),
    "clicks": rng.integers(100, 2000, 12),
    "impressions": rng.integers(5000, 50000, 12),
    "cost": rng.uniform(50, 900, 12).round(2),
})
result = (df.pipe(add_ratio, "clicks", "impressions", "ctr")
            .pipe(add_ratio, "cost", "clicks", "cpc")
            .pipe(top_k, "ctr", 5))
print(result.to_string(index=False))
print()
norm = df.groupby("channel")[["clicks", "cost"]].transform(lambda s: s / s.sum()).round(4)
print(norm.head().to_string())
print(df.groupby("channel")["cost"].agg(lambda s: round(s.max() - s.min(), 2)).to_dict())
