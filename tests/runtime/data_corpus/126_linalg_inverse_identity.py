import numpy as np

A = np.array([[4.0, 7.0, 2.0], [3.0, 6.0, 1.0], [2.0, 5.0, 3.0]])
A_inv = np.linalg.inv(A)
print("inverse:")
print(np.round(A_inv, 10) + 0.0)
ident = A @ A_inv
print("A @ inv(A) is identity:", np.allclose(ident, np.eye(3)))
print(np.round(ident, 12) + 0.0)
print(
    "det:", round(float(np.linalg.det(A)), 10), "det(inv):", round(float(np.linalg.det(A_inv)), 10)
)
print("pinv equals inv:", np.allclose(np.linalg.pinv(A), A_inv))
singular = np.array([[1.0, 2.0], [2.0, 4.0]])
try:
    np.linalg.inv(singular)
except np.linalg.LinAlgError as exc:
    print("singular matrix:", exc)
print("pinv of singular:")
print(np.round(np.linalg.pinv(singular), 8) + 0.0)
