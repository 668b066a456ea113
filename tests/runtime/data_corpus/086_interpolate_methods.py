import numpy as np
import pandas as pd

s = pd.Series([1.0, np.nan, np.nan, 4.0, np.nan, 9.0, np.nan, np.nan, np.nan, 20.0, np.nan])
df = pd.DataFrame({
    "raw": s,
    "linear": s.interpolate(),
    "limit1": s.interpolate(limit=1),
    "inside": s.interpolate(limit_area="inside"),
    "both_dirs": s.interpolate(limit_direction="both"),
    "pad": s.ffill(),
    "bfill_lim": s.bfill(limit=1),
})
print(df)
x = pd.Series([0.0, np.nan, 10.0, np.nan, np.nan, 40.0], index=[0, 1, 2, 5, 6, 8])
print()
print("index-aware:", x.interpolate(method="index").tolist())
print("positional:", x.interpolate().tolist())
