import numpy as np

rng = np.random.default_rng(2023)
for n in (1_000, 10_000, 100_000):
    pts = rng.random((n, 2))
    inside = np.count_nonzero((pts ** 2).sum(axis=1) <= 1.0)
    est = 4 * inside / n
    print(f"n={n:>7}: inside={inside:>6} pi~{est:.5f} error={abs(est - np.pi):.5f}")
batches = np.array([4 * np.mean((rng.random((2000, 2)) ** 2).sum(axis=1) <= 1) for _ in range(50)])
print("batch mean:", round(float(batches.mean()), 6), "std:", round(float(batches.std(ddof=1)), 6))
lo, hi = np.percentile(batches, [2.5, 97.5])
print(f"95% interval of batch estimates: [{lo:.4f}, {hi:.4f}]")
