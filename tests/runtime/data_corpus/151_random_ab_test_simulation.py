"""Estimate the power of an A/B test by simulation."""

import math

import numpy as np

rng = np.random.default_rng(1001)


def z_test(conv_a, n_a, conv_b, n_b):
    p_pool = (conv_a + conv_b) / (n_a + n_b)
    se = math.sqrt(p_pool * (1 - p_pool) * (1 / n_a + 1 / n_b))
    z = (conv_b / n_b - conv_a / n_a) / se
    return 0.5 * math.erfc(-z / math.sqrt(2))


for n in (500, 1000, 2000, 4000):
    wins = 0
    for _ in range(400):
        a = rng.binomial(n, 0.10)
        b = rng.binomial(n, 0.12)
        if z_test(a, n, b, n) > 0.975:
            wins += 1
    print(f"n per arm={n:>5}: power ~ {wins / 400:.3f}")
null_hits = sum(
    z_test(rng.binomial(2000, 0.1), 2000, rng.binomial(2000, 0.1), 2000) > 0.975 for _ in range(400)
)
print("false positive rate ~", null_hits / 400)
