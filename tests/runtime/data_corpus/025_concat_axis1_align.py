import numpy as np
import pandas as pd

idx_a = pd.date_range("2024-01-01", periods=5, freq="D")
idx_b = pd.date_range("2024-01-03", periods=5, freq="D")
a = pd.Series(np.arange(5, dtype=float) * 1.5, index=idx_a, name="north")
b = pd.Series([10.0, np.nan, 12.0, 13.5, 9.0], index=idx_b, name="south")

wide = pd.concat([a, b], axis=1)
print(wide)
print()
print("inner:")
print(pd.concat([a, b], axis=1, join="inner"))
print()
total = wide.sum(axis=1, min_count=1)
print("row totals:", total.tolist())
stacked = pd.concat([a.rename("value").to_frame().assign(site="north"),
                     b.rename("value").to_frame().assign(site="south")], ignore_index=True)
print(stacked.groupby("site")["value"].describe().round(3))
