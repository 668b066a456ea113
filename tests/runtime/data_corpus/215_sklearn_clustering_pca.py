"""Unsupervised learning: k-means on blobs, silhouette, and PCA."""
import numpy as np
from sklearn.cluster import DBSCAN, KMeans
from sklearn.datasets import make_blobs
from sklearn.decomposition import PCA
from sklearn.metrics import adjusted_rand_score, silhouette_score

X, labels = make_blobs(n_samples=300, centers=[[0, 0], [5, 5], [0, 6]], cluster_std=0.8,
                       random_state=3)
km = KMeans(n_clusters=3, n_init=10, random_state=0).fit(X)
order = np.lexsort((km.cluster_centers_[:, 1], km.cluster_centers_[:, 0]))
print("centres:", np.round(km.cluster_centers_[order], 2).tolist())
print(f"inertia: {km.inertia_:.2f}")
print(f"silhouette: {silhouette_score(X, km.labels_):.4f}")
print(f"agreement with truth (ARI): {adjusted_rand_score(labels, km.labels_):.4f}")
db = DBSCAN(eps=0.9, min_samples=5).fit(X)
print("DBSCAN clusters:", len(set(db.labels_) - {-1}), "noise points:", int((db.labels_ == -1).sum()))

rng = np.random.default_rng(1)
base = rng.normal(size=(200, 2))
data = np.c_[base, base @ [[1.0, 0.5], [0.2, 1.0]] + rng.normal(scale=0.05, size=(200, 2))]
pca = PCA(n_components=3).fit(data)
print("explained variance ratio:", np.round(pca.explained_variance_ratio_, 4).tolist())
print("components needed for 95%:", int(np.searchsorted(np.cumsum(pca.explained_variance_ratio_), 0.95) + 1))
