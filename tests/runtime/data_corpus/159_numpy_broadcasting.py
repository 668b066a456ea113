import numpy as np

prices = np.array([[10.0, 12.5, 8.0], [11.0, 12.0, 8.5], [10.5, 13.0, 9.0]])  # day x product
qty = np.array([3, 1, 4])
print("revenue per day:", (prices * qty).sum(axis=1).tolist())
col_means = prices.mean(axis=0)
print("centered:")
print(prices - col_means)
z = (prices - prices.mean(axis=0)) / prices.std(axis=0)
print("z-scores:")
print(np.round(z, 6) + 0.0)
pts = np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0], [1.0, 1.0]])
d = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=-1))
print("pairwise distances:")
print(np.round(d, 6))
nearest = np.where(np.eye(len(pts), dtype=bool), np.inf, d).argmin(axis=1)
print("nearest neighbour:", nearest.tolist())
table = np.arange(1, 6)[:, None] * np.arange(1, 6)[None, :]
print("multiplication table:")
print(table)
print(
    "shapes:", np.broadcast_shapes((3, 1), (1, 4)), np.broadcast_to(np.arange(3), (2, 3)).tolist()
)
