# inputs: survey.csv
import pandas as pd

df = pd.read_csv("/input/survey.csv", na_values=["N/A", ""], keep_default_na=True)
print("shape:", df.shape)
print("missing per column:", df.isna().sum().to_dict())
print("rows with any missing:", int(df.isna().any(axis=1).sum()))
print("complete rows:", len(df.dropna()))
print("rows with >= 7 values:", len(df.dropna(thresh=7)))
print("rows with age and income:", len(df.dropna(subset=["age", "income"])))
cols_ok = df.dropna(axis=1, thresh=int(0.9 * len(df)))
print("columns at least 90% present:", list(cols_ok.columns))
pct = (df.isna().mean() * 100).round(2).sort_values(ascending=False, kind="stable")
print(pct.to_string())
