# inputs: survey.csv
import statistics

import pandas as pd

s = pd.read_csv("/input/survey.csv")
ages = s["age"].dropna().astype(int).tolist()
print("mean:", round(statistics.mean(ages), 6), "pandas:", round(s["age"].mean(), 6))
print("median:", statistics.median(ages), "median_low:", statistics.median_low(ages))
print(
    "mode:", statistics.mode(ages), "multimode:", statistics.multimode(s["satisfaction"].tolist())
)
print("stdev:", round(statistics.stdev(ages), 8), "pandas std:", round(s["age"].std(), 8))
print("quantiles:", statistics.quantiles(ages, n=4))
print("pandas quantiles:", s["age"].quantile([0.25, 0.5, 0.75]).tolist())
print("fmean weighted:", round(statistics.fmean(ages, weights=range(1, len(ages) + 1)), 6))
sat = s["satisfaction"].tolist()
print("correlation age/satisfaction:", round(statistics.correlation(ages[:100], sat[:100]), 6))
slope, intercept = statistics.linear_regression(ages[:100], sat[:100])
print("regression:", round(slope, 6), round(intercept, 6))
nd = statistics.NormalDist.from_samples(ages)
print("normal fit:", round(nd.mean, 4), round(nd.stdev, 4), "P(age<30):", round(nd.cdf(30), 6))
