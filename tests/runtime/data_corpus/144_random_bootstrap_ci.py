# inputs: sales.csv
"""Bootstrap a confidence interval for mean order revenue per region."""

import numpy as np
import pandas as pd

sales = pd.read_csv("/input/sales.csv")
sales["revenue"] = sales["units"] * sales["unit_price"]
rng = np.random.default_rng(7)
rows = []
for region, g in sales.groupby("region"):
    values = g["revenue"].to_numpy()
    boots = np.array(
        [rng.choice(values, size=len(values), replace=True).mean() for _ in range(2000)]
    )
    lo, hi = np.percentile(boots, [2.5, 97.5])
    rows.append(
        {"region": region, "n": len(values), "mean": values.mean(), "ci_low": lo, "ci_high": hi}
    )
ci = pd.DataFrame(rows).set_index("region").round(2)
print(ci)
west, east = (sales.loc[sales.region == r, "revenue"].to_numpy() for r in ("West", "East"))
observed = west.mean() - east.mean()
pooled = np.concatenate([west, east])
count = 0
for _ in range(2000):
    perm = rng.permutation(pooled)
    if perm[: len(west)].mean() - perm[len(west) :].mean() >= observed:
        count += 1
print("observed West-East difference:", round(observed, 4))
print("permutation p-value:", round(count / 2000, 4))
