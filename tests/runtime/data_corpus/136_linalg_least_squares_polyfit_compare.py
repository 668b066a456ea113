import numpy as np

x = np.linspace(0, 4, 21)
y = (
    1.5
    - 0.8 * x
    + 0.35 * x**2
    + np.array(
        [
            0.02,
            -0.03,
            0.01,
            0.04,
            -0.02,
            0.0,
            0.03,
            -0.04,
            0.01,
            0.02,
            -0.01,
            0.0,
            0.02,
            -0.03,
            0.01,
            0.04,
            -0.02,
            0.01,
            0.0,
            -0.01,
            0.02,
        ]
    )
)
coef_poly = np.polyfit(x, y, 2)
V = np.vander(x, 3)
coef_lstsq = np.linalg.lstsq(V, y, rcond=None)[0]
print("polyfit:", np.round(coef_poly, 8))
print("lstsq  :", np.round(coef_lstsq, 8))
print("agree:", np.allclose(coef_poly, coef_lstsq))
p = np.poly1d(coef_poly)
print("p(2.5) =", round(float(p(2.5)), 8), "roots:", np.round(np.sort_complex(p.roots), 6))
print(
    "derivative:",
    np.round(p.deriv().coeffs, 6),
    "vertex x:",
    round(float(-coef_poly[1] / (2 * coef_poly[0])), 8),
)
fit, cov = np.polyfit(x, y, 1, cov=True)
print("linear fit:", np.round(fit, 6), "stderr:", np.round(np.sqrt(np.diag(cov)), 6))
P = np.polynomial.Polynomial.fit(x, y, 2).convert()
print("Polynomial.fit:", np.round(P.coef, 8))
