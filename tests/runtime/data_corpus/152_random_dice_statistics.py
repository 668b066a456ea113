import numpy as np
import pandas as pd

rng = np.random.default_rng(6)
rolls = rng.integers(1, 7, size=(10_000, 3))
totals = rolls.sum(axis=1)
dist = pd.Series(totals).value_counts().sort_index()
exact = {}
for a in range(1, 7):
    for b in range(1, 7):
        for c in range(1, 7):
            exact[a + b + c] = exact.get(a + b + c, 0) + 1
table = pd.DataFrame({"observed": dist, "expected": pd.Series(exact) / 216 * 10_000})
table["expected"] = table["expected"].round(1)
table["diff"] = (table["observed"] - table["expected"]).round(1)
print(table)
print("mean total:", totals.mean(), "(theory 10.5)")
print("triples:", int((rolls.min(axis=1) == rolls.max(axis=1)).sum()))
chi2 = float((((table["observed"] - table["expected"]) ** 2) / table["expected"]).sum())
print("chi-square:", round(chi2, 4), "dof:", len(table) - 1)
