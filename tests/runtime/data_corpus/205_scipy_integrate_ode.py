"""Integrals and differential equations with scipy.integrate."""
import numpy as np
from scipy import integrate

val, err = integrate.quad(lambda x: np.exp(-x ** 2), -np.inf, np.inf)
print("gaussian integral:", round(val, 10), "sqrt(pi):", round(np.sqrt(np.pi), 10))
val2, _ = integrate.quad(lambda x, a: a * x ** 2, 0, 3, args=(2.0,))
print("int 2x^2 from 0 to 3:", round(val2, 10))
dbl, _ = integrate.dblquad(lambda y, x: x * y, 0, 1, 0, 2)
print("double integral:", round(dbl, 10))

x = np.linspace(0, np.pi, 101)
print("trapezoid sin:", round(integrate.trapezoid(np.sin(x), x), 6))
print("simpson sin:", round(integrate.simpson(np.sin(x), x=x), 8))
print("cumulative (last 3):", np.round(integrate.cumulative_trapezoid(np.sin(x), x)[-3:], 6).tolist())


def lotka_volterra(t, z, a, b, c, d):
    x, y = z
    return [a * x - b * x * y, -c * y + d * x * y]


sol = integrate.solve_ivp(lotka_volterra, (0, 15), [10, 5], args=(1.5, 1, 3, 1),
                          dense_output=True, rtol=1e-8, atol=1e-8)
print("solve_ivp success:", sol.success)
print("state at t=5, 10, 15:", np.round(sol.sol([5, 10, 15]).T, 3).tolist())
decay = integrate.solve_ivp(lambda t, y: -0.5 * y, (0, 4), [2.0], t_eval=[0, 1, 2, 4],
                            rtol=1e-9, atol=1e-12)
print("decay:", np.round(decay.y[0], 6).tolist())
print("exact:", np.round(2.0 * np.exp(-0.5 * np.array([0, 1, 2, 4])), 6).tolist())
ys = integrate.odeint(lambda y, t: [y[1], -y[0]], [1.0, 0.0], [0, np.pi / 2, np.pi])
print("odeint harmonic:", (np.round(ys, 5) + 0.0).tolist())
