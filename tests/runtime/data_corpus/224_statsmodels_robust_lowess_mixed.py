"""Beyond OLS with statsmodels: robust regression, LOWESS, quantile and mixed-effects models."""
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
from statsmodels.nonparametric.smoothers_lowess import lowess

rng = np.random.default_rng(5)
x = np.linspace(0, 10, 120)
y = 1.5 + 0.8 * x + rng.normal(0, 0.6, x.size)
y[[10, 40, 90]] += [12.0, -9.0, 15.0]  # outliers
X = sm.add_constant(x)
ols = sm.OLS(y, X).fit()
rlm = sm.RLM(y, X, M=sm.robust.norms.HuberT()).fit()
print("OLS slope:", round(float(ols.params[1]), 4), " RLM slope:", round(float(rlm.params[1]), 4))
print("RLM down-weighted points:", np.flatnonzero(rlm.weights < 0.5).tolist())

smooth = lowess(y, x, frac=0.3, it=3)
print("LOWESS at x=0, 5, 10:", np.round(np.interp([0, 5, 10], smooth[:, 0], smooth[:, 1]), 3).tolist())

df = pd.DataFrame({"x": x, "y": y})
for q in (0.1, 0.5, 0.9):
    fit = smf.quantreg("y ~ x", df).fit(q=q)
    print(f"quantile {q}: intercept={fit.params['Intercept']:.3f} slope={fit.params['x']:.3f}")

groups = np.repeat(np.arange(12), 15)
offsets = rng.normal(0, 2.0, 12)[groups]
hours = rng.uniform(0, 8, groups.size)
score = 60 + 3.0 * hours + offsets + rng.normal(0, 1.5, groups.size)
panel = pd.DataFrame({"score": score, "hours": hours, "school": groups})
mixed = smf.mixedlm("score ~ hours", panel, groups=panel["school"]).fit()
print("mixed fixed effects:", mixed.fe_params.round(3).to_dict())
print(f"group variance: {float(mixed.cov_re.iloc[0, 0]):.3f}, residual: {mixed.scale:.3f}")
wls = sm.WLS(y, X, weights=1.0 / (1.0 + x)).fit()
print("WLS params:", np.round(wls.params, 4).tolist())
