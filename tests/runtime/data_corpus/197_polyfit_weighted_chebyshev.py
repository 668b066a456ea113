import numpy as np

x = np.linspace(-1, 1, 41)
y = np.exp(x) * np.cos(3 * x)
noise = 0.01 * np.sin(17 * x)
w = 1 / (0.05 + np.abs(x))
for deg in (3, 5, 7):
    c = np.polyfit(x, y + noise, deg, w=w)
    resid = y + noise - np.polyval(c, x)
    print(f"weighted deg {deg}: max|resid| {np.abs(resid).max():.6f}")
cheb = np.polynomial.Chebyshev.fit(x, y, 8)
print("chebyshev deg 8 max error:", f"{np.abs(cheb(x) - y).max():.3e}")
print("chebyshev coefficients:", np.round(cheb.convert().coef[:4], 6).tolist())
leg = np.polynomial.Legendre.fit(x, y, 6)
print("legendre deg 6 max error:", f"{np.abs(leg(x) - y).max():.3e}")
p = np.polynomial.Polynomial([1, -3, 2])
print("roots of 2x^2-3x+1:", sorted(np.round(p.roots(), 10).tolist()))
print("integral from 0 to 2:", round(float(p.integ()(2) - p.integ()(0)), 10))
