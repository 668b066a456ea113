import numpy as np

rng = np.random.default_rng(99)
n = 200_000
samples = {
    "exponential(2)": rng.exponential(2.0, n),
    "gamma(3,1.5)": rng.gamma(3.0, 1.5, n),
    "beta(2,5)": rng.beta(2.0, 5.0, n),
    "lognormal(0,0.5)": rng.lognormal(0.0, 0.5, n),
    "poisson(3.5)": rng.poisson(3.5, n).astype(float),
    "binomial(20,.25)": rng.binomial(20, 0.25, n).astype(float),
    "geometric(.2)": rng.geometric(0.2, n).astype(float),
    "chisquare(4)": rng.chisquare(4, n),
    "student_t(10)": rng.standard_t(10, n),
    "triangular(0,1,3)": rng.triangular(0, 1, 3, n),
}
print(f"{'distribution':<18}{'mean':>10}{'var':>10}")
for name, s in samples.items():
    print(f"{name:<18}{s.mean():>10.3f}{s.var():>10.3f}")
print("multinomial:", rng.multinomial(100, [0.2, 0.3, 0.5]).tolist())
mvn = rng.multivariate_normal([0, 0], [[1, 0.8], [0.8, 1]], size=50_000)
print("mvn corr:", round(float(np.corrcoef(mvn.T)[0, 1]), 3))
