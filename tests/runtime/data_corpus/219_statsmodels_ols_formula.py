"""Ordinary least squares with statsmodels: the formula API, robust errors and a hypothesis test."""
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf

rng = np.random.default_rng(42)
n = 200
df = pd.DataFrame({
    "size": rng.uniform(40, 160, n).round(1),
    "rooms": rng.integers(1, 6, n),
    "district": rng.choice(["north", "south", "centre"], n),
})
base = {"north": 20.0, "south": 5.0, "centre": 60.0}
df["price"] = (df["district"].map(base) + 2.5 * df["size"] + 8.0 * df["rooms"]
               + rng.normal(0, 15, n)).round(2)

model = smf.ols("price ~ size + rooms + C(district)", data=df).fit()
print("coefficients:")
for name, value in model.params.round(3).items():
    print(f"  {name:<24} {value:>9.3f}  p={model.pvalues[name]:.2e}")
print(f"R^2 = {model.rsquared:.4f}, adjusted = {model.rsquared_adj:.4f}")
print(f"F = {model.fvalue:.2f}, AIC = {model.aic:.2f}, BIC = {model.bic:.2f}")
robust = model.get_robustcov_results(cov_type="HC3")
print("HC3 standard errors:", np.round(robust.bse, 3).tolist())
print("size = 2.5:", model.t_test("size = 2.5").summary_frame().round(4).to_dict("records"))
ci = model.conf_int(alpha=0.05).loc["size"].round(4).tolist()
print("95% CI for size:", ci)

# The same fit from arrays with an explicit constant.
X = sm.add_constant(pd.get_dummies(df[["size", "rooms", "district"]], drop_first=True,
                                   dtype=float))
array_fit = sm.OLS(df["price"], X).fit()
print("same slope for size:", bool(np.isclose(array_fit.params["size"], model.params["size"])))
new = pd.DataFrame({"size": [75.0, 120.0], "rooms": [2, 4], "district": ["centre", "south"]})
pred = model.get_prediction(new).summary_frame(alpha=0.1)
print(pred[["mean", "obs_ci_lower", "obs_ci_upper"]].round(2).to_string())
print("influence (max Cook's distance):",
      round(float(model.get_influence().cooks_distance[0].max()), 5))
