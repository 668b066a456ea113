"""Reshape a wide quarterly table to long format and back."""
import pandas as pd

wide = pd.DataFrame({
    "country": ["Chile", "Kenya", "Nepal", "Peru"],
    "2021Q1": [3.1, 5.0, 2.2, 4.4], "2021Q2": [3.4, 5.2, 2.0, 4.1],
    "2021Q3": [2.9, 5.5, 2.6, 3.9], "2021Q4": [3.6, 5.1, 2.9, 4.6],
})
long = wide.melt(id_vars="country", var_name="quarter", value_name="growth")
long["year"] = long["quarter"].str[:4].astype(int)
long["q"] = long["quarter"].str[-1].astype(int)
print(long.head(8).to_string(index=False))
print(long.shape)

back = long.pivot(index="country", columns="quarter", values="growth")
print()
print(back)
print("round trip equal:", back.reset_index().rename_axis(columns=None).equals(wide))
print()
print("best quarter per country:")
best = long.loc[long.groupby("country")["growth"].idxmax(), ["country", "quarter", "growth"]]
print(best.to_string(index=False))
