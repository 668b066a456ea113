"""Nodal analysis of a resistor network: build the conductance matrix and solve."""

import numpy as np

# (node_a, node_b, resistance in ohms); node 0 is ground
resistors = [
    (1, 0, 100.0),
    (1, 2, 220.0),
    (2, 0, 330.0),
    (2, 3, 470.0),
    (3, 0, 1000.0),
    (1, 3, 680.0),
]
current_sources = {1: 0.05}  # amps injected into node 1
n = 3
G = np.zeros((n, n))
for a, b, r in resistors:
    g = 1 / r
    for node in (a, b):
        if node:
            G[node - 1, node - 1] += g
    if a and b:
        G[a - 1, b - 1] -= g
        G[b - 1, a - 1] -= g
inj = np.zeros(n)
for node, amps in current_sources.items():
    inj[node - 1] += amps
V = np.linalg.solve(G, inj)
for k, v in enumerate(V, start=1):
    print(f"V{k} = {v:.6f} V")
for a, b, r in resistors:
    va = V[a - 1] if a else 0.0
    vb = V[b - 1] if b else 0.0
    print(f"I({a}->{b}) = {1000 * (va - vb) / r:.5f} mA")
power = sum((((V[a - 1] if a else 0) - (V[b - 1] if b else 0)) ** 2) / r for a, b, r in resistors)
print("total power:", round(power, 8), "W; source power:", round(V[0] * 0.05, 8), "W")
