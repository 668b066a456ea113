import numpy as np
import pandas as pd

idx = pd.MultiIndex.from_product([["2023", "2024"], ["H1", "H2"]], names=["year", "half"])
df = pd.DataFrame(
    np.arange(1, 13).reshape(4, 3) * 10, index=idx, columns=["alpha", "beta", "gamma"]
)
print(df)
print()
stacked = df.stack()
stacked.index.names = ["year", "half", "product"]
print(stacked.head(7))
print()
print(stacked.unstack("half"))
print()
print(df.unstack("half").swaplevel(axis=1).sort_index(axis=1))
print()
print("xs 2024:")
print(df.xs("2024", level="year"))
print("sum by year:", df.groupby(level="year").sum().sum(axis=1).to_dict())
