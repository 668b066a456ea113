"""Price x volume scenario grid with np.select rules, saved with savetxt."""

import numpy as np

prices = np.linspace(8.0, 14.0, 7)
volumes = np.array([500, 1000, 1500, 2000, 3000])
unit_cost, fixed = 6.5, 4000.0
revenue = prices[None, :] * volumes[:, None]
profit = revenue - unit_cost * volumes[:, None] - fixed
print("profit grid (rows=volume, cols=price):")
print(np.round(profit, 1))
rating = np.select(
    [profit < 0, profit < 5000, profit < 15000], ["loss", "thin", "ok"], default="great"
)
for v, row in zip(volumes, rating, strict=True):
    print(f"{v:>5}: {' '.join(f'{r:<5}' for r in row)}")
be_volume = fixed / (prices - unit_cost)
print("break-even volume by price:", np.ceil(be_volume).astype(int).tolist())
best = np.unravel_index(np.argmax(profit), profit.shape)
print("best scenario: volume", int(volumes[best[0]]), "price", float(prices[best[1]]))
np.savetxt(
    "profit_grid.csv",
    profit,
    delimiter=",",
    fmt="%.1f",
    header="price=" + ",".join(f"{p:.1f}" for p in prices),
    comments="# ",
)
with open("profit_grid.csv") as fh:
    print(fh.read().splitlines()[0])
