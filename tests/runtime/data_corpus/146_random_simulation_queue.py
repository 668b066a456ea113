"""Simulate a single-server queue (M/M/1) with a seeded generator."""

import numpy as np

rng = np.random.default_rng(314)
lam, mu, n = 0.8, 1.0, 5000
arrivals = np.cumsum(rng.exponential(1 / lam, n))
service = rng.exponential(1 / mu, n)
start = np.empty(n)
finish = np.empty(n)
for i in range(n):
    start[i] = arrivals[i] if i == 0 else max(arrivals[i], finish[i - 1])
    finish[i] = start[i] + service[i]
wait = start - arrivals
print("mean wait:", round(float(wait.mean()), 4), "theory:", round(lam / (mu * (mu - lam)), 4))
print(
    "mean time in system:",
    round(float((finish - arrivals).mean()), 4),
    "theory:",
    round(1 / (mu - lam), 4),
)
print("share who waited:", round(float((wait > 0).mean()), 4), "theory:", lam / mu)
print("max wait:", round(float(wait.max()), 4))
print("p95 wait:", round(float(np.percentile(wait, 95)), 4))
