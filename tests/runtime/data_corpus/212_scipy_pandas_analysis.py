"""A pandas analysis that leans on scipy: outliers, group tests, smoothing, regression."""
# inputs: sales.csv
import numpy as np
import pandas as pd
from scipy import stats, signal, optimize

df = pd.read_csv("/input/sales.csv")
print("columns:", list(df.columns))
numeric = df.select_dtypes("number")
z = np.abs(stats.zscore(numeric, nan_policy="omit"))
print("rows with an outlier (|z| > 2):", int((z > 2).any(axis=1).sum()))
col = "unit_price"
values = numeric[col].dropna().to_numpy(dtype=float)
print(f"{col}: skew={stats.skew(values):.5f} kurtosis={stats.kurtosis(values):.5f}")
print(f"{col}: iqr={stats.iqr(values):.5f} trimmed mean={stats.trim_mean(values, 0.1):.5f}")
ranks = stats.rankdata(values[:10])
print("ranks of the first ten:", ranks.tolist())
if len(values) >= 7:
    print("smoothed (first 5):", np.round(signal.savgol_filter(values, 5, 2)[:5], 4).tolist())
xs = np.arange(len(values), dtype=float)
(slope, intercept), _ = optimize.curve_fit(lambda x, m, c: m * x + c, xs, values)
print(f"trend: slope={slope:.5f} intercept={intercept:.5f}")
print("bootstrap-free 95% CI of the mean:",
      np.round(stats.t.interval(0.95, len(values) - 1, loc=values.mean(), scale=stats.sem(values)), 4).tolist())
