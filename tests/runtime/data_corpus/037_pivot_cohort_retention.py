# inputs: sales.csv
"""Monthly cohort retention table, the way a growth analyst builds it."""

import pandas as pd

df = pd.read_csv("/input/sales.csv", parse_dates=["date"])
df["order_month"] = df["date"].dt.to_period("M")
df["cohort"] = df.groupby("customer_id")["order_month"].transform("min")
df["age"] = (df["order_month"] - df["cohort"]).apply(lambda off: off.n)

cohort_counts = df.pivot_table(
    index="cohort", columns="age", values="customer_id", aggfunc="nunique"
)
sizes = cohort_counts[0]
retention = cohort_counts.divide(sizes, axis=0).round(2)
print("cohort sizes:")
print(sizes.to_string())
print()
print(retention.fillna("").astype(str).to_string())
