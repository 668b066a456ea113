# inputs: weather.csv
import pandas as pd

w = pd.read_csv("/input/weather.csv", parse_dates=["date"])
w["month"] = w["date"].dt.month
w["quarter"] = w["date"].dt.quarter
g = w.set_index(["city", "quarter", "month"]).sort_index()
mean_q = g["temp_max"].groupby(level=["city", "quarter"]).mean().round(2)
print(mean_q.unstack())
print()
idx = pd.IndexSlice
print(g.loc[idx["Oslo", 3, 7], ["temp_max", "temp_min"]].describe().round(3))
print()
swing = g.groupby(level="city")["temp_max"].agg(lambda s: s.max() - s.min())
print("annual swing:", swing.to_dict())
ranked = mean_q.groupby(level="quarter").rank(ascending=False).astype(int).unstack()
print(ranked)
print("levels:", g.index.names, "nlevels:", g.index.nlevels)
