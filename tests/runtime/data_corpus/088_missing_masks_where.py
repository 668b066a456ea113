import numpy as np
import pandas as pd

df = pd.DataFrame({
    "a": [1.0, -2.0, np.nan, 4.0, 5.0],
    "b": [np.nan, 0.5, 0.25, -1.0, np.nan],
    "c": ["x", None, "z", "w", None],
})
print(df.isna())
print()
print("where a > 0:")
print(df["a"].where(df["a"] > 0).tolist())
print("mask negatives with 0:")
print(df[["a", "b"]].mask(df[["a", "b"]] < 0, 0))
print()
print("notna count per row:", df.notna().sum(axis=1).tolist())
print("first valid b:", df["b"].first_valid_index(), "last valid c:", df["c"].last_valid_index())
print("replace:", df["c"].replace({None: "?"}).fillna("?").tolist())
print("sum skipna:", df["a"].sum(), "sum no skip:", df["a"].sum(skipna=False))
print("mean of b:", df["b"].mean(), "count:", df["b"].count())
