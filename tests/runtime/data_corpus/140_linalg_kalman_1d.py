"""A constant-velocity Kalman filter with 2x2 matrices."""
import numpy as np

rng = np.random.default_rng(8)
dt = 1.0
F = np.array([[1, dt], [0, 1]])
H = np.array([[1.0, 0.0]])
Q = np.array([[0.25 * dt ** 4, 0.5 * dt ** 3], [0.5 * dt ** 3, dt ** 2]]) * 0.01
Rm = np.array([[4.0]])
true_pos = 2.0 * np.arange(20) + 1.0
meas = true_pos + rng.normal(0, 2.0, 20)

x = np.array([0.0, 0.0])
P = np.eye(2) * 100
est = []
for z in meas:
    x = F @ x
    P = F @ P @ F.T + Q
    S = H @ P @ H.T + Rm
    K = P @ H.T @ np.linalg.inv(S)
    x = x + (K @ (np.array([z]) - H @ x)).ravel()
    P = (np.eye(2) - K @ H) @ P
    est.append(x.copy())
est = np.array(est)
print("final position/velocity:", np.round(est[-1], 5))
print("final covariance diag:", np.round(np.diag(P), 6))
err_meas = np.sqrt(np.mean((meas - true_pos) ** 2))
err_filt = np.sqrt(np.mean((est[5:, 0] - true_pos[5:]) ** 2))
print(f"rmse measurements {err_meas:.5f}, filtered (after warm-up) {err_filt:.5f}")
