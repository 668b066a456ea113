"""k-means from scratch with numpy broadcasting and a seeded generator."""
import numpy as np

rng = np.random.default_rng(17)
centers_true = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 6.0]])
X = np.vstack([c + rng.normal(scale=0.8, size=(60, 2)) for c in centers_true])


def kmeans(X, k, rng, iters=100):
    centroids = X[rng.choice(len(X), size=k, replace=False)]
    for it in range(iters):
        d = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
        labels = d.argmin(axis=1)
        new = np.array([X[labels == j].mean(axis=0) for j in range(k)])
        if np.allclose(new, centroids):
            return new, labels, it + 1
        centroids = new
    return centroids, labels, iters


centroids, labels, iters = kmeans(X, 3, rng)
order = np.lexsort((centroids[:, 1], centroids[:, 0]))
print("iterations:", iters)
print("centroids (sorted):")
print(np.round(centroids[order], 4))
sizes = np.bincount(labels, minlength=3)[order]
print("cluster sizes:", sizes.tolist())
inertia = float(((X - centroids[labels]) ** 2).sum())
print("inertia:", round(inertia, 4))
