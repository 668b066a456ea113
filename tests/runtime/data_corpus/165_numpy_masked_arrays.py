import numpy as np

readings = np.array([12.1, -999.0, 13.4, 12.8, -999.0, 14.2, 99.9, 13.1])
m = np.ma.masked_equal(readings, -999.0)
m = np.ma.masked_greater(m, 50)
print("masked:", m)
print("count:", m.count(), "mean:", round(float(m.mean()), 8), "std:", round(float(m.std()), 8))
print("filled:", m.filled(np.nan).tolist())
print("mask:", m.mask.tolist())
grid = np.ma.array(
    np.arange(12, dtype=float).reshape(3, 4), mask=np.arange(12).reshape(3, 4) % 5 == 0
)
print(grid)
print("row sums:", grid.sum(axis=1).tolist())
print("compressed:", grid.compressed().tolist())
