"""Statistical tests an analyst runs: t-tests, correlation, chi-square, normality."""
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(42)
control = rng.normal(loc=10.0, scale=2.0, size=80)
treated = rng.normal(loc=11.0, scale=2.0, size=80)
t, p = stats.ttest_ind(treated, control)
print(f"t-test: t={t:.4f} p={p:.6f} significant={p < 0.05}")
w = stats.ttest_ind(treated, control, equal_var=False)
print(f"Welch: t={w.statistic:.4f} p={w.pvalue:.6f}")
u = stats.mannwhitneyu(treated, control, alternative="two-sided")
print(f"Mann-Whitney U={u.statistic:.1f} p={u.pvalue:.6f}")

x = np.arange(30, dtype=float)
y = 2.0 * x + rng.normal(scale=3.0, size=30)
r, pr = stats.pearsonr(x, y)
rho, ps = stats.spearmanr(x, y)
print(f"pearson r={r:.5f} (p<1e-10: {pr < 1e-10}); spearman rho={rho:.5f}")
lr = stats.linregress(x, y)
print(f"linregress slope={lr.slope:.5f} intercept={lr.intercept:.5f} r2={lr.rvalue**2:.5f}")

table = pd.crosstab(pd.Series(["a", "a", "b", "b", "b", "c"] * 10, name="group"),
                    pd.Series(["yes", "no", "yes", "yes", "no", "no"] * 10, name="answer"))
chi2, pc, dof, expected = stats.chi2_contingency(table)
print(table)
print(f"chi2={chi2:.5f} dof={dof} p={pc:.6f}")
print("expected:", np.round(expected, 3).tolist())

sample = rng.normal(size=200)
print("shapiro p > 0.05:", stats.shapiro(sample).pvalue > 0.05)
d = stats.describe(sample)
print(f"describe: n={d.nobs} mean={d.mean:.5f} var={d.variance:.5f} skew={d.skewness:.5f}")
print("z-scores of [1, 2, 3, 4, 10]:", np.round(stats.zscore([1, 2, 3, 4, 10]), 5).tolist())
f, pa = stats.f_oneway(control, treated, rng.normal(10.5, 2.0, 80))
print(f"ANOVA F={f:.4f} p={pa:.6f}")
