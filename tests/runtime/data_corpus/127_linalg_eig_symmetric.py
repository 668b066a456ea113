import numpy as np

np.set_printoptions(precision=6, suppress=True)

# Covariance-like symmetric matrix
S = np.array([[4.0, 2.0, 0.6], [2.0, 3.0, 0.4], [0.6, 0.4, 1.0]])
w, V = np.linalg.eigh(S)
signs = np.sign(V[np.abs(V).argmax(axis=0), range(V.shape[1])])
V = V * signs
print("eigenvalues (ascending):", np.round(w, 8))
print("eigenvectors (columns, sign-normalised):")
print(np.round(V, 6) + 0.0)
print("reconstruction ok:", np.allclose(V @ np.diag(w) @ V.T, S))
print("orthonormal:", np.allclose(V.T @ V, np.eye(3)))
print("trace = sum(eig):", round(float(np.trace(S)), 8), round(float(w.sum()), 8))
print("explained variance ratio:", np.round(w[::-1] / w.sum(), 6))
