import itertools

import numpy as np

# Volume of a parallelepiped and area of triangles via determinants
edges = np.array([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [0.5, 1.0, 4.0]])
print("volume:", round(abs(float(np.linalg.det(edges))), 10))
sign, logdet = np.linalg.slogdet(edges)
print("slogdet:", sign, round(float(logdet), 10))

pts = np.array([[0, 0], [4, 0], [4, 3], [0, 3], [2, 5]], dtype=float)
areas = {}
for i, j, k in itertools.combinations(range(len(pts)), 3):
    m = np.array([[pts[i][0], pts[i][1], 1], [pts[j][0], pts[j][1], 1], [pts[k][0], pts[k][1], 1]])
    areas[(i, j, k)] = round(abs(float(np.linalg.det(m))) / 2, 8) + 0.0
for tri, area in sorted(areas.items()):
    print(tri, area)
print("largest:", max(areas, key=areas.get))
H = np.array([[1 / (i + j + 1) for j in range(5)] for i in range(5)])
print("Hilbert(5) det:", f"{np.linalg.det(H):.6e}", "cond:", f"{np.linalg.cond(H):.6e}")
