import numpy as np

A = np.array([[12.0, -51.0, 4.0], [6.0, 167.0, -68.0], [-4.0, 24.0, -41.0]])
Q, R = np.linalg.qr(A)
d = np.sign(np.diag(R))
Q, R = Q * d, (R.T * d).T
print("Q =")
print(np.round(Q, 8) + 0.0)
print("R =")
print(np.round(R, 8) + 0.0)
print("QR == A:", np.allclose(Q @ R, A), "Q orthogonal:", np.allclose(Q.T @ Q, np.eye(3)))

S = np.array([[25.0, 15.0, -5.0], [15.0, 18.0, 0.0], [-5.0, 0.0, 11.0]])
L = np.linalg.cholesky(S)
print("cholesky L =")
print(np.round(L, 10) + 0.0)
print("L L^T == S:", np.allclose(L @ L.T, S))
b = np.array([1.0, 2.0, 3.0])
y = np.linalg.solve(L, b)
x = np.linalg.solve(L.T, y)
print("solution via cholesky:", np.round(x, 10))
try:
    np.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]))
except np.linalg.LinAlgError as exc:
    print("not positive definite:", exc)
