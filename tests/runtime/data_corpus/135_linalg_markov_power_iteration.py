"""PageRank on a small link graph by power iteration, checked against an eigen solve."""

import numpy as np

links = {
    "home": ["about", "blog", "shop"],
    "about": ["home"],
    "blog": ["home", "shop", "post1"],
    "shop": ["home", "cart"],
    "cart": ["shop"],
    "post1": ["blog"],
}
pages = sorted(links)
idx = {p: i for i, p in enumerate(pages)}
n = len(pages)
M = np.zeros((n, n))
for src, outs in links.items():
    for dst in outs:
        M[idx[dst], idx[src]] = 1 / len(outs)
d = 0.85
G = d * M + (1 - d) / n * np.ones((n, n))
r = np.full(n, 1 / n)
iterations = 0
while iterations < 200:
    iterations += 1
    new = G @ r
    if np.abs(new - r).sum() < 1e-12:
        break
    r = new
print("converged after", iterations, "iterations")
for p in sorted(pages, key=lambda p: -r[idx[p]]):
    print(f"{p:<6} {r[idx[p]]:.6f}")
vals, vecs = np.linalg.eig(G)
k = int(np.argmax(vals.real))
v = np.abs(vecs[:, k].real)
v /= v.sum()
print(
    "eigenvector agrees:",
    np.allclose(v, r, atol=1e-9),
    "dominant eigenvalue:",
    round(float(vals[k].real), 10),
)
