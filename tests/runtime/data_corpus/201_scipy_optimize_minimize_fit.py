"""Fit a model with scipy.optimize: minimize a loss, curve_fit a decay, find a root."""
import numpy as np
from scipy import optimize


def rosen(x):
    return sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


res = optimize.minimize(rosen, x0=np.array([-1.2, 1.0, 0.8]), method="BFGS")
print("BFGS at the minimum:", bool(res.fun < 1e-8), "x:", np.round(res.x, 4).tolist())
res_nm = optimize.minimize(rosen, x0=[1.3, 0.7], method="Nelder-Mead",
                           options={"xatol": 1e-8, "fatol": 1e-8})
print("Nelder-Mead x:", np.round(res_nm.x, 4).tolist())
bounded = optimize.minimize(lambda v: (v[0] - 3) ** 2 + (v[1] + 1) ** 2, [0, 0],
                            method="L-BFGS-B", bounds=[(0, 2), (-5, 5)])
print("L-BFGS-B with bounds:", np.round(bounded.x, 4).tolist())

rng = np.random.default_rng(3)
t = np.linspace(0, 4, 50)
y = 2.5 * np.exp(-1.3 * t) + 0.5 + rng.normal(scale=0.02, size=t.size)
popt, pcov = optimize.curve_fit(lambda t, a, b, c: a * np.exp(-b * t) + c, t, y,
                                p0=(1, 1, 0))
print("curve_fit a, b, c:", np.round(popt, 3).tolist())
print("parameter std errors < 0.05:", bool(np.all(np.sqrt(np.diag(pcov)) < 0.05)))

root = optimize.brentq(lambda x: x ** 3 - 2 * x - 5, 2, 3)
print("brentq root:", round(root, 8))
sol = optimize.root_scalar(lambda x: np.cos(x) - x, bracket=[0, 1], method="brenth")
print("cos(x) = x at", round(sol.root, 8))
lsq = optimize.least_squares(lambda p: p[0] * t + p[1] - (3 * t + 1), x0=[0, 0])
print("least_squares:", np.round(lsq.x, 6).tolist())
