# inputs: sales.csv
import numpy as np
import pandas as pd

s = pd.read_csv("/input/sales.csv")
s["revenue"] = s["units"] * s["unit_price"]
q1, q3 = s["revenue"].quantile([0.25, 0.75])
iqr = q3 - q1
lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
print(f"IQR fences: [{lo:.2f}, {hi:.2f}]")
outliers = s[(s["revenue"] < lo) | (s["revenue"] > hi)]
print("outliers:", len(outliers))
print(
    outliers.sort_values("revenue", ascending=False)[["order_id", "product", "units", "revenue"]]
    .head()
    .to_string(index=False)
)
s["revenue_capped"] = s["revenue"].clip(upper=hi)
s["log_revenue"] = np.log1p(s["revenue"]).round(6)
s["z"] = ((s["revenue"] - s["revenue"].mean()) / s["revenue"].std()).round(4)
print(
    "mean before/after capping:",
    round(s["revenue"].mean(), 4),
    round(s["revenue_capped"].mean(), 4),
)
print("|z|>3:", int((s["z"].abs() > 3).sum()))
s["size"] = np.where(s["revenue"] > hi, "outlier", np.where(s["revenue"] > q3, "large", "normal"))
print(s["size"].value_counts().to_dict())
