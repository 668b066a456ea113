"""Prepare a CSV for modelling: impute, encode, scale, and write the features out."""
# inputs: employees.csv
import numpy as np
import pandas as pd
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import LabelEncoder, MinMaxScaler

df = pd.read_csv("/input/employees.csv")
print("columns:", list(df.columns))
numeric = df.select_dtypes("number").columns.tolist()
text = [c for c in df.columns if c not in numeric]
imputed = SimpleImputer(strategy="median").fit_transform(df[numeric])
scaled = MinMaxScaler().fit_transform(imputed)
out = pd.DataFrame(np.round(scaled, 6), columns=numeric)
for col in text[:2]:
    out[col + "_code"] = LabelEncoder().fit_transform(df[col].astype(str))
out.to_csv("features.csv", index=False)
print("rows:", len(out), "features:", out.shape[1])
print("scaled ranges:", {c: [float(out[c].min()), float(out[c].max())] for c in numeric})
print(out.head(3).to_string())
