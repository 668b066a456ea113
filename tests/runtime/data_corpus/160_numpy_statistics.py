import numpy as np

data = np.array([12.5, 15.0, 9.8, 22.1, 18.4, 15.0, 11.3, 30.2, 14.7, 16.9, np.nan])
clean = data[~np.isnan(data)]
print(
    "n:",
    clean.size,
    "mean:",
    round(float(clean.mean()), 8),
    "nanmean:",
    round(float(np.nanmean(data)), 8),
)
print("median:", np.median(clean), "nanmedian:", np.nanmedian(data))
print("std pop:", round(float(clean.std()), 8), "std sample:", round(float(clean.std(ddof=1)), 8))
print("var:", round(float(np.nanvar(data, ddof=1)), 8))
print("percentiles 10/50/90:", np.round(np.percentile(clean, [10, 50, 90]), 6).tolist())
print(
    "quantile methods:",
    [
        round(float(np.quantile(clean, 0.25, method=m)), 6)
        for m in ["linear", "lower", "higher", "nearest", "midpoint"]
    ],
)
print("ptp:", np.ptp(clean), "min/max:", clean.min(), clean.max())
w = np.arange(1, clean.size + 1)
print("weighted average:", round(float(np.average(clean, weights=w)), 8))
q1, q3 = np.percentile(clean, [25, 75])
iqr = q3 - q1
outliers = clean[(clean < q1 - 1.5 * iqr) | (clean > q3 + 1.5 * iqr)]
print("IQR:", round(float(iqr), 6), "outliers:", outliers.tolist())
x = np.arange(clean.size, dtype=float)
print("corrcoef:", round(float(np.corrcoef(x, clean)[0, 1]), 8))
print("cov:", np.round(np.cov(x, clean), 6).tolist())
