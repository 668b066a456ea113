"""Statistical tests with statsmodels: ANOVA, unit roots, autocorrelation and multiple testing."""
# inputs: survey.csv
import warnings

import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
from statsmodels.stats.diagnostic import acorr_ljungbox, het_breuschpagan
from statsmodels.stats.multicomp import pairwise_tukeyhsd
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint, proportions_ztest
from statsmodels.stats.weightstats import ttest_ind
from statsmodels.tsa.stattools import acf, adfuller, kpss, pacf

survey = pd.read_csv("/input/survey.csv")
survey["income_usd"] = survey["income"].str.replace(r"[$,]", "", regex=True).astype(float)
survey = survey.dropna(subset=["satisfaction", "income_usd", "gender"])
fit = smf.ols("satisfaction ~ C(gender) + income_usd", data=survey).fit()
anova = sm.stats.anova_lm(fit, typ=2)
print(anova.round(4).to_string())
tukey = pairwise_tukeyhsd(survey["satisfaction"], survey["gender"])
print("Tukey rejections:", int(np.sum(tukey.reject)), "of", len(tukey.reject))
yes = (survey["recommend"] == "Yes").sum()
stat, p = proportions_ztest(yes, len(survey), value=0.5)
print(f"recommend share vs 0.5: z={stat:.4f} p={p:.4f}")
print("Wilson CI:", np.round(proportion_confint(yes, len(survey), method="wilson"), 4).tolist())
men = survey.loc[survey["gender"] == "M", "income_usd"]
women = survey.loc[survey["gender"] == "F", "income_usd"]
t, p, dof = ttest_ind(men, women, usevar="unequal")
print(f"income M vs F: t={t:.4f} p={p:.4f} df={dof:.2f}")
lm, lm_p, f, f_p = het_breuschpagan(fit.resid, fit.model.exog)
print(f"Breusch-Pagan: LM={lm:.4f} p={lm_p:.4f}")

rng = np.random.default_rng(11)
walk = np.cumsum(rng.normal(size=300))
noise = rng.normal(size=300)
for name, series in (("random walk", walk), ("white noise", noise)):
    adf = adfuller(series, autolag="AIC", result_object=False)
    print(f"ADF {name}: stat={adf[0]:.4f} p={adf[1]:.4f} lags={adf[2]}")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    stat, p, lags, _ = kpss(noise, regression="c", nlags="auto", result_object=False)
print(f"KPSS white noise: stat={stat:.4f} p>={p:.3f} lags={lags}",
      [w.category.__name__ for w in caught])
ar = np.zeros(300)
for i in range(1, 300):
    ar[i] = 0.6 * ar[i - 1] + noise[i]
print("ACF:", np.round(acf(ar, nlags=4), 4).tolist())
print("PACF:", np.round(pacf(ar, nlags=4), 4).tolist())
print(acorr_ljungbox(ar, lags=[5, 10]).round(4).to_string())
pvalues = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216]
for method in ("bonferroni", "holm", "fdr_bh"):
    reject, corrected, _, _ = multipletests(pvalues, alpha=0.05, method=method)
    print(f"{method}: {int(reject.sum())} rejected, first corrected {corrected[0]:.4f}")
