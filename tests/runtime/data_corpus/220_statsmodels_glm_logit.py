"""Generalised linear models with statsmodels: logit, Poisson counts and odds ratios."""
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf

rng = np.random.default_rng(7)
n = 400
df = pd.DataFrame({
    "age": rng.integers(18, 70, n),
    "visits": rng.poisson(3, n),
    "premium": rng.choice([0, 1], n, p=[0.7, 0.3]),
})
logit_p = 1 / (1 + np.exp(-(-3.0 + 0.04 * df["age"] + 0.3 * df["visits"] + 0.9 * df["premium"])))
df["churned"] = (rng.uniform(size=n) < logit_p).astype(int)
df["claims"] = rng.poisson(np.exp(-1.0 + 0.02 * df["age"] + 0.5 * df["premium"]))

logit = smf.logit("churned ~ age + visits + premium", data=df).fit(disp=False)
print("logit converged:", logit.mle_retvals["converged"])
print("logit params:", logit.params.round(4).to_dict())
print("odds ratios:", np.exp(logit.params).round(3).to_dict())
print(f"pseudo R^2 = {logit.prsquared:.4f}, log-likelihood = {logit.llf:.3f}")
margeff = logit.get_margeff(at="overall").summary_frame()
print("average marginal effects:", margeff["dy/dx"].round(4).to_dict())
table = logit.pred_table(threshold=0.5)
print("prediction table:", table.astype(int).tolist())

poisson = smf.glm("claims ~ age + premium", data=df, family=sm.families.Poisson()).fit()
print("poisson params:", poisson.params.round(4).to_dict())
print(f"deviance = {poisson.deviance:.3f}, pearson chi2 = {poisson.pearson_chi2:.3f}")
print("rate ratio of premium:", round(float(np.exp(poisson.params["premium"])), 4))
nb = smf.glm("claims ~ age + premium", data=df,
             family=sm.families.NegativeBinomial(alpha=0.5)).fit()
print("negative binomial AIC:", round(float(nb.aic), 3))
probit = sm.Probit(df["churned"], sm.add_constant(df[["age", "visits", "premium"]])).fit(disp=False)
print("probit params:", probit.params.round(4).to_dict())
