"""Interpolation: 1-D, splines, and scattered 2-D data."""
import numpy as np
from scipy import interpolate

x = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
y = np.array([0.0, 0.8, 0.9, 0.1, -0.8, -1.0])
xs = np.array([0.5, 1.5, 2.5, 4.2])
print("linear:", np.round(np.interp(xs, x, y), 6).tolist())
f = interpolate.interp1d(x, y, kind="cubic")
print("interp1d cubic:", np.round(f(xs), 6).tolist())
cs = interpolate.CubicSpline(x, y, bc_type="natural")
print("CubicSpline:", np.round(cs(xs), 6).tolist(), "derivative at 2:", round(float(cs(2.0, 1)), 6))
print("spline integral 0..5:", round(float(cs.integrate(0, 5)), 6))
pchip = interpolate.PchipInterpolator(x, y)
print("pchip:", np.round(pchip(xs), 6).tolist())
akima = interpolate.Akima1DInterpolator(x, y)
print("akima:", np.round(akima(xs), 6).tolist())

tck = interpolate.splrep(x, y, s=0)
print("splev:", np.round(interpolate.splev(xs, tck), 6).tolist())
smooth = interpolate.UnivariateSpline(np.linspace(0, 5, 30),
                                      np.sin(np.linspace(0, 5, 30)), s=0.01)
print("smoothing spline at 2.5:", round(float(smooth(2.5)), 4))

pts = np.array([[0, 0], [1, 0], [0, 1], [1, 1], [0.5, 0.5]])
vals = pts[:, 0] + 2 * pts[:, 1]
grid = interpolate.griddata(pts, vals, np.array([[0.25, 0.25], [0.75, 0.5]]), method="linear")
print("griddata:", np.round(grid, 6).tolist())
rbf = interpolate.RBFInterpolator(pts, vals, kernel="thin_plate_spline")
print("rbf:", np.round(rbf(np.array([[0.25, 0.75]])), 6).tolist())
g = interpolate.RegularGridInterpolator(([0, 1, 2], [0, 1]), np.array([[0, 1], [2, 3], [4, 5.0]]))
print("regular grid:", np.round(g([[0.5, 0.5], [1.5, 0.25]]), 6).tolist())
