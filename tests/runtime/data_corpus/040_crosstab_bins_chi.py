import numpy as np
import pandas as pd

rng = np.random.default_rng(2024)
n = 400
df = pd.DataFrame({
    "group": rng.choice(["control", "treatment"], size=n),
    "age": rng.integers(18, 80, size=n),
})
base = np.where(df["group"] == "treatment", 0.55, 0.40)
df["converted"] = rng.random(n) < base
df["age_band"] = pd.cut(df["age"], [18, 35, 50, 65, 80], right=False)

obs = pd.crosstab(df["group"], df["converted"])
print(obs)
row = obs.sum(axis=1).to_numpy()[:, None]
col = obs.sum(axis=0).to_numpy()[None, :]
expected = row * col / obs.to_numpy().sum()
chi2 = ((obs.to_numpy() - expected) ** 2 / expected).sum()
print("expected counts:")
print(np.round(expected, 3))
print("chi-square statistic:", round(float(chi2), 6))
print()
print(pd.crosstab(df["age_band"], df["group"], values=df["converted"], aggfunc="mean").round(3))
