import io

import pandas as pd

raw = io.StringIO("""store,week,visitors,revenue
A,1,120,1500.5
A,2,,1620.0
A,3,135,
A,4,-1,1710.25
B,1,80,900
B,2,85,n/a
B,3,,940.75
B,4,92,1010
""")
df = (
    pd.read_csv(raw, na_values=["n/a"])
    .assign(visitors=lambda d: d["visitors"].mask(d["visitors"] < 0))
    .sort_values(["store", "week"])
)
print(df)
clean = df.assign(
    visitors=lambda d: (
        d.groupby("store")["visitors"].transform(lambda s: s.interpolate().bfill().ffill()).round(1)
    ),
    revenue=lambda d: (
        d.groupby("store")["revenue"].transform(lambda s: s.fillna(s.mean())).round(2)
    ),
)
print()
print(clean)
print()
print(clean.groupby("store")[["visitors", "revenue"]].sum())
