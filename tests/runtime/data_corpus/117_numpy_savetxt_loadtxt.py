import numpy as np

rng = np.random.default_rng(3)
data = np.column_stack([np.arange(1, 6), rng.normal(10, 2, 5).round(3), rng.integers(0, 100, 5)])
np.savetxt(
    "table.csv", data, delimiter=",", fmt=["%d", "%.3f", "%d"], header="id,value,count", comments=""
)
with open("table.csv") as fh:
    print(fh.read())
loaded = np.loadtxt("table.csv", delimiter=",", skiprows=1)
print(loaded.shape, loaded.dtype)
print(loaded[:, 1])
ids, counts = np.loadtxt(
    "table.csv", delimiter=",", skiprows=1, usecols=(0, 2), unpack=True, dtype=int
)
print("ids:", ids.tolist(), "counts:", counts.tolist())
rec = np.genfromtxt("table.csv", delimiter=",", names=True)
print("names:", rec.dtype.names, "mean value:", round(float(rec["value"].mean()), 4))
