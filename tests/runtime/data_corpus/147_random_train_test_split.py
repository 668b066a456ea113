import numpy as np
import pandas as pd

rng = np.random.default_rng(0)
n = 120
df = pd.DataFrame(
    {
        "x": rng.normal(0, 1, n).round(4),
        "label": rng.choice(["cat", "dog", "bird"], size=n, p=[0.5, 0.3, 0.2]),
    }
)
idx = rng.permutation(n)
cut = int(0.75 * n)
train, test = df.iloc[idx[:cut]], df.iloc[idx[cut:]]
print("train/test sizes:", len(train), len(test))
print("train label share:", train["label"].value_counts(normalize=True).round(3).to_dict())
print("test label share:", test["label"].value_counts(normalize=True).round(3).to_dict())
strat_test = df.groupby("label", group_keys=False).sample(frac=0.25, random_state=1)
print(
    "stratified test:",
    strat_test["label"].value_counts().to_dict(),
    "first ids:",
    strat_test.index[:5].tolist(),
)
sample = df.sample(n=5, random_state=42)
print(sample)
folds = np.array_split(rng.permutation(n), 5)
print("fold sizes:", [len(f) for f in folds], "fold0 head:", sorted(folds[0][:4].tolist()))
