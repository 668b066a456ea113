# inputs: survey.csv
"""Compare age distributions of promoters and detractors with shared histogram bins."""
import itertools
import json

import numpy as np
import pandas as pd

s = pd.read_csv("/input/survey.csv").dropna(subset=["age"])
promoter = s["recommend"].str.lower() == "yes"
edges = np.arange(15, 80, 10)
h_yes, _ = np.histogram(s.loc[promoter, "age"], bins=edges)
h_no, _ = np.histogram(s.loc[~promoter, "age"], bins=edges)
table = pd.DataFrame({"promoters": h_yes, "others": h_no},
                     index=[f"{lo}-{hi - 1}" for lo, hi in itertools.pairwise(edges)])
table["share_promoters"] = (table["promoters"] / table.sum(axis=1)).round(3)
print(table)
p = h_yes / h_yes.sum()
q = h_no / h_no.sum()
print("total variation distance:", round(float(0.5 * np.abs(p - q).sum()), 6))
cdf_gap = np.abs(np.cumsum(p) - np.cumsum(q)).max()
print("max CDF gap (KS-like):", round(float(cdf_gap), 6))
with open("age_histograms.json", "w") as f:
    json.dump({"edges": edges.tolist(), "promoters": h_yes.tolist(), "others": h_no.tolist()}, f)
with open("age_histograms.json") as fh:
    print(fh.read())
