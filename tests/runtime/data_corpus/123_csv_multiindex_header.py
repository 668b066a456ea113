import pandas as pd

cols = pd.MultiIndex.from_product([["2023", "2024"], ["plan", "actual"]])
df = pd.DataFrame(
    [[10, 9, 12, 13], [20, 22, 25, 24], [5, 5, 6, 4]],
    index=["north", "south", "east"],
    columns=cols,
)
df.index.name = "region"
df.to_csv("multi.csv")
with open("multi.csv") as fh:
    print(fh.read())
back = pd.read_csv("multi.csv", header=[0, 1], index_col=0)
print(back)
print("equal:", back.equals(df))
print(back.xs("actual", axis=1, level=1))
delta = back.T.groupby(level=1).sum().T
print(delta)
