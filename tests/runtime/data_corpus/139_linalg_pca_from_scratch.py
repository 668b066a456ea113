import numpy as np
import pandas as pd

rng = np.random.default_rng(123)
n = 200
latent = rng.normal(size=(n, 2))
mixing = np.array([[2.0, 0.3], [1.5, -0.2], [0.1, 1.0], [0.0, 0.8]])
X = latent @ mixing.T + rng.normal(scale=0.1, size=(n, 4))
df = pd.DataFrame(X, columns=["height", "weight", "speed", "agility"])

Z = (df - df.mean()) / df.std(ddof=1)
C = np.cov(Z.to_numpy(), rowvar=False)
vals, vecs = np.linalg.eigh(C)
order = np.argsort(vals)[::-1]
vals, vecs = vals[order], vecs[:, order]
vecs = vecs * np.sign(vecs[np.abs(vecs).argmax(axis=0), range(4)])
print("explained variance ratio:", np.round(vals / vals.sum(), 6))
print("cumulative:", np.round(np.cumsum(vals) / vals.sum(), 6))
loadings = pd.DataFrame(vecs[:, :2], index=df.columns, columns=["PC1", "PC2"]).round(4) + 0.0
print(loadings)
scores = Z.to_numpy() @ vecs[:, :2]
print("score variances:", np.round(scores.var(axis=0, ddof=1), 6))
U, s, Vt = np.linalg.svd(Z.to_numpy(), full_matrices=False)
print("svd agrees:", np.allclose((s ** 2) / (n - 1), vals))
