"""Spatial queries and clustering: KD-trees, distances, hulls, hierarchical clusters."""
import numpy as np
from scipy.spatial import KDTree, ConvexHull, Delaunay, distance
from scipy.cluster import hierarchy
from scipy.cluster.vq import kmeans2

rng = np.random.default_rng(5)
points = rng.random((200, 2))
tree = KDTree(points)
d, i = tree.query([[0.5, 0.5], [0.1, 0.9]], k=3)
print("3 nearest distances:", np.round(d, 6).tolist())
print("3 nearest indices:", i.tolist())
print("within 0.1 of centre:", len(tree.query_ball_point([0.5, 0.5], r=0.1)))
print("pairs closer than 0.02:", len(tree.query_pairs(0.02)))

a = np.array([[0, 0], [3, 4], [6, 8]])
print("cdist euclidean:", distance.cdist(a, a).tolist())
print("pdist cityblock:", distance.pdist(a, "cityblock").tolist())
print("cosine distance:", round(distance.cosine([1, 0, 1], [1, 1, 0]), 8))
print("squareform shape:", distance.squareform(distance.pdist(points[:5])).shape)

hull = ConvexHull(points)
print("hull vertices:", len(hull.vertices), "area:", round(hull.volume, 6))
tri = Delaunay(points[:20])
print("delaunay triangles:", len(tri.simplices))

blobs = np.vstack([rng.normal(c, 0.3, size=(30, 2)) for c in ([0, 0], [4, 4], [0, 5])])
Z = hierarchy.linkage(blobs, method="ward")
labels = hierarchy.fcluster(Z, t=3, criterion="maxclust")
print("cluster sizes:", sorted(np.bincount(labels)[1:].tolist()))
centroids, lab = kmeans2(blobs, np.array([[0.0, 0.0], [4.0, 4.0], [0.0, 5.0]]), minit="matrix")
print("kmeans2 centroids:", np.round(centroids, 1).tolist())
