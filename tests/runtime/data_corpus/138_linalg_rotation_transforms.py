import numpy as np


def rotation(theta_deg):
    t = np.radians(theta_deg)
    return np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])


square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float).T
R = rotation(90)
print("rot90 of square:")
print(np.round(R @ square, 10) + 0.0)
R30 = rotation(30)
print("R30^12 is identity:", np.allclose(np.linalg.matrix_power(R30, 12), np.eye(2)))
print("det R30:", round(float(np.linalg.det(R30)), 12))
S = np.diag([2.0, 0.5])
T = R30 @ S
print("area scale factor:", round(abs(float(np.linalg.det(T))), 10))
homog = np.array([[1, 0, 3], [0, 1, -2], [0, 0, 1]], dtype=float)
pts = np.vstack([square, np.ones(4)])
print("translated:", (homog @ pts)[:2].T.tolist())
print("inverse translation:", np.round(np.linalg.inv(homog), 10).tolist())
