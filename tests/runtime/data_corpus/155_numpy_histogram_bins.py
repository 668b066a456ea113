# inputs: weather.csv
import numpy as np
import pandas as pd

temps = pd.read_csv("/input/weather.csv")["temp_max"].dropna().to_numpy()
counts, edges = np.histogram(temps, bins=10)
print("edges:", np.round(edges, 3).tolist())
for c, lo, hi in zip(counts, edges[:-1], edges[1:], strict=True):
    print(f"[{lo:6.2f}, {hi:6.2f}) {int(c):4d} " + "*" * int(c // 8))
dens, _ = np.histogram(temps, bins=edges, density=True)
print("density integrates to:", round(float((dens * np.diff(edges)).sum()), 10))
fixed, fixed_edges = np.histogram(temps, bins=[-20, -10, 0, 10, 20, 30, 40])
print("fixed bins:", fixed.tolist())
print("auto bin count:", len(np.histogram_bin_edges(temps, bins="auto")) - 1)
idx = np.digitize([-15.0, 0.0, 12.5, 39.0], fixed_edges)
print("digitize:", idx.tolist())
h2, xe, ye = np.histogram2d(temps[:300], temps[1:301], bins=4)
print("2d hist total:", int(h2.sum()), "shape:", h2.shape)
