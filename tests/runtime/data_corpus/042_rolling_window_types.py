import numpy as np
import pandas as pd

s = pd.Series([4.0, 8.0, np.nan, 6.0, 10.0, 12.0, 7.0, 3.0, 9.0, 11.0],
              index=pd.date_range("2024-05-01", periods=10, freq="D"), name="x")

out = pd.DataFrame({
    "x": s,
    "sum3": s.rolling(3).sum(),
    "sum3_min1": s.rolling(3, min_periods=1).sum(),
    "mean3_center": s.rolling(3, center=True).mean(),
    "max_2D": s.rolling("2D").max(),
    "median4": s.rolling(4, min_periods=2).median(),
    "std3": s.rolling(3).std().round(5),
})
print(out)
print()
print("rolling count:", s.rolling(3).count().tolist())
print("custom apply (range):", s.rolling(3).apply(lambda w: w.max() - w.min(), raw=True).tolist())
