import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
idx = pd.date_range("2024-01-01", periods=60, freq="D")
latency = pd.Series(np.round(rng.lognormal(mean=4.0, sigma=0.35, size=60), 2), index=idx, name="ms")
latency.iloc[[17, 41]] = [420.0, 515.5]

bands = pd.DataFrame({
    "ms": latency,
    "p50": latency.rolling(14, min_periods=7).quantile(0.5),
    "p90": latency.rolling(14, min_periods=7).quantile(0.9),
})
bands["over_p90"] = bands["ms"] > bands["p90"].shift(1)
print(bands.iloc[10:22].round(2))
print()
print("days over previous p90:", [d.strftime("%m-%d") for d in bands.index[bands["over_p90"]]])
print("weekly max:")
print(latency.resample("W-SUN").max().head(5).to_string())
