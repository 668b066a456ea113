import numpy as np

rng = np.random.default_rng(42)
n = 50
x1 = rng.uniform(0, 10, n)
x2 = rng.uniform(-5, 5, n)
noise = rng.normal(0, 0.5, n)
y = 3.0 + 2.0 * x1 - 1.5 * x2 + noise

X = np.column_stack([np.ones(n), x1, x2])
coef, residuals, rank, sv = np.linalg.lstsq(X, y, rcond=None)
print("coefficients:", np.round(coef, 6))
print("rank:", rank, "singular values:", np.round(sv, 6))
pred = X @ coef
ss_res = float(((y - pred) ** 2).sum())
ss_tot = float(((y - y.mean()) ** 2).sum())
print("R^2:", round(1 - ss_res / ss_tot, 8))
print("residual sum of squares:", round(ss_res, 6), round(float(residuals[0]), 6))
normal = np.linalg.solve(X.T @ X, X.T @ y)
print("normal equations agree:", np.allclose(normal, coef))
sigma2 = ss_res / (n - 3)
se = np.sqrt(np.diag(sigma2 * np.linalg.inv(X.T @ X)))
print("standard errors:", np.round(se, 6))
print("t-stats:", np.round(coef / se, 4))
