import pandas as pd

idx = pd.MultiIndex.from_tuples(
    [("b", 2), ("a", 3), ("b", 1), ("a", 1), ("c", 2), ("a", 2)], names=["letter", "num"])
df = pd.DataFrame({"v": [10, 20, 30, 40, 50, 60]}, index=idx)
print(df.sort_index())
print()
print(df.sort_index(level="num", sort_remaining=False, kind="stable"))
print()
print(df.sort_index(level=["letter", "num"], ascending=[False, True]))
print("is monotonic:", df.sort_index().index.is_monotonic_increasing)
print("loc a:", df.sort_index().loc["a"]["v"].tolist())
print("slice a..b:", df.sort_index().loc["a":"b"].shape[0], "rows")
