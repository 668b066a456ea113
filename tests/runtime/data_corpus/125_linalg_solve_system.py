# inputs: matrix.txt, rhs.txt
"""Solve A x = b from text files and check the residual."""
import numpy as np

A = np.loadtxt("/input/matrix.txt")
b = np.loadtxt("/input/rhs.txt")
print("A =")
print(A.astype(int))
print("b =", b.astype(int))
x = np.linalg.solve(A, b)
print("x =", np.round(x, 8) + 0.0)
residual = A @ x - b
print("residual small:", bool(np.linalg.norm(residual) < 1e-9))
print("det(A) =", round(float(np.linalg.det(A)), 6))
print("cond(A) =", round(float(np.linalg.cond(A)), 6))
print("rank:", np.linalg.matrix_rank(A))
np.savetxt("solution.txt", x, fmt="%.8f")
