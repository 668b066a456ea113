import numpy as np
import pandas as pd

scores = pd.DataFrame(
    {"q1": [3, 5, 2, 4], "q2": [4, 4, 1, 5], "q3": [5, 3, 2, 4], "q4": [2, 5, 3, 3]},
    index=["ann", "ben", "cid", "dia"],
)


def weighted(row, weights):
    return float(np.dot(row.to_numpy(dtype=float), weights))


w = np.array([0.1, 0.2, 0.3, 0.4])
scores["weighted"] = scores[["q1", "q2", "q3", "q4"]].apply(weighted, axis=1, args=(w,)).round(2)
scores["spread"] = scores[["q1", "q2", "q3", "q4"]].apply(np.ptp, axis=1)
scores["mode"] = scores[["q1", "q2", "q3", "q4"]].mode(axis=1)[0].astype(int)
print(scores)
col_stats = scores[["q1", "q2", "q3", "q4"]].apply(
    lambda c: pd.Series({"mean": c.mean(), "var": c.var()})
)
print(col_stats.round(4))
print("apply raw=True sums:", scores[["q1", "q2"]].apply(np.sum, raw=True).tolist())
