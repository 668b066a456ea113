import numpy as np

rng = np.random.default_rng(404)
M = rng.normal(size=(6, 6))
S = M @ M.T
w = np.linalg.eigvalsh(S)
print("eigenvalues of M M^T:", np.round(w, 6))
print("all positive:", bool((w > 0).all()))
print("trace check:", round(float(np.trace(S)), 6), round(float(w.sum()), 6))
corr = np.corrcoef(rng.normal(size=(4, 500)))
print("random corr off-diagonal max:", round(float(np.abs(corr - np.eye(4)).max()), 6))
X = rng.standard_normal((1000, 3)) @ np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.3], [0.0, 0.0, 1.0]])
cov = np.cov(X, rowvar=False)
print("sample covariance:")
print(np.round(cov, 4))
print("det:", round(float(np.linalg.det(cov)), 6))
