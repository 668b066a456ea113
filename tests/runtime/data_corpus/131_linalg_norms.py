import numpy as np

v = np.array([3.0, -4.0, 12.0])
M = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
print("L2:", np.linalg.norm(v), "L1:", np.linalg.norm(v, 1), "Linf:", np.linalg.norm(v, np.inf))
print("L0 (nonzeros):", np.linalg.norm(v, 0))
print(
    "frobenius:",
    round(float(np.linalg.norm(M)), 10),
    "nuclear:",
    round(float(np.linalg.norm(M, "nuc")), 10),
)
print("max col sum (1):", np.linalg.norm(M, 1), "max row sum (inf):", np.linalg.norm(M, np.inf))
print("spectral (2):", round(float(np.linalg.norm(M, 2)), 10))
print("row norms:", np.round(np.linalg.norm(M, axis=1), 10))
unit = v / np.linalg.norm(v)
print("unit vector:", np.round(unit, 10), "norm", round(float(np.linalg.norm(unit)), 12))
a, b = np.array([1.0, 2.0, 2.0]), np.array([2.0, 0.0, 1.0])
cos = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
print(
    "cosine similarity:",
    round(float(cos), 10),
    "angle deg:",
    round(float(np.degrees(np.arccos(cos))), 8),
)
print(
    "vector_norm:",
    np.linalg.vector_norm(M, axis=0),
    "matrix_norm:",
    round(float(np.linalg.matrix_norm(M)), 10),
)
