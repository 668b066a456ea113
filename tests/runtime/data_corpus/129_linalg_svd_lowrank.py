import numpy as np

# ratings matrix (users x items), rank-2 approximation
R = np.array([
    [5, 4, 0, 1, 0],
    [4, 5, 1, 0, 1],
    [1, 0, 5, 4, 4],
    [0, 1, 4, 5, 5],
    [5, 5, 1, 1, 0],
], dtype=float)
U, s, Vt = np.linalg.svd(R, full_matrices=False)
for k in range(len(s)):
    flip = np.sign(U[np.abs(U[:, k]).argmax(), k])
    U[:, k] *= flip
    Vt[k, :] *= flip
print("singular values:", np.round(s, 6))
print("energy kept by k=2:", round(float((s[:2] ** 2).sum() / (s ** 2).sum()), 6))
R2 = U[:, :2] @ np.diag(s[:2]) @ Vt[:2, :]
print("rank-2 approximation:")
print(np.round(R2, 3) + 0.0)
print("frobenius error:", round(float(np.linalg.norm(R - R2)), 6), "= sqrt(sum of dropped s^2):",
      round(float(np.sqrt((s[2:] ** 2).sum())), 6))
print("user factors:")
print(np.round(U[:, :2] * s[:2], 4) + 0.0)
