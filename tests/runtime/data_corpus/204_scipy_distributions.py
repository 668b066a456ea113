"""Probability distributions: pdf, cdf, quantiles, intervals and fitting."""
import numpy as np
from scipy import stats

print("P(Z < 1.96) =", round(stats.norm.cdf(1.96), 8))
print("95% two-sided z:", round(stats.norm.ppf(0.975), 8))
print("t critical (df=10):", round(stats.t.ppf(0.975, df=10), 8))
print("binomial P(X<=3 | n=10, p=0.5):", round(stats.binom.cdf(3, 10, 0.5), 8))
print("poisson pmf(2 | mu=3):", round(stats.poisson.pmf(2, 3), 8))
print("chi2 sf(3.84 | df=1):", round(stats.chi2.sf(3.84, 1), 8))
print("exponential mean(scale=2):", stats.expon(scale=2).mean())
print("gamma(a=2) var:", stats.gamma(2).var())
print("beta(2, 5) interval 90%:", np.round(stats.beta(2, 5).interval(0.9), 6).tolist())
print("lognorm median:", round(stats.lognorm(s=0.5, scale=np.exp(1)).median(), 6))

rng = np.random.default_rng(7)
data = rng.normal(loc=5.0, scale=1.5, size=500)
loc, scale = stats.norm.fit(data)
print(f"norm.fit: loc={loc:.4f} scale={scale:.4f}")
mean, (lo, hi) = data.mean(), stats.t.interval(0.95, len(data) - 1, loc=data.mean(),
                                                 scale=stats.sem(data))
print(f"mean {mean:.4f}, 95% CI ({lo:.4f}, {hi:.4f})")
ks = stats.kstest(data, stats.norm(loc, scale).cdf)
print("KS p > 0.05:", ks.pvalue > 0.05)
print("percentile of 7.0:", round(stats.percentileofscore(data, 7.0), 4))
print("entropy of [0.5, 0.25, 0.25]:", round(stats.entropy([0.5, 0.25, 0.25], base=2), 6))
kde = stats.gaussian_kde(data)
print("kde at 5.0:", round(float(kde(5.0)[0]), 5))
