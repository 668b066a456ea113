import numpy as np
import pandas as pd

values = np.array([10, 11, 13, 12, 15, 18, 17, 16, 19, 22, 21, 24], dtype=float)
s = pd.Series(values)

alpha = 0.4
manual = np.empty_like(values)
manual[0] = values[0]
for i in range(1, len(values)):
    manual[i] = alpha * values[i] + (1 - alpha) * manual[i - 1]

pandas_ewm = s.ewm(alpha=alpha, adjust=False).mean().to_numpy()
print("manual:", np.round(manual, 6))
print("pandas:", np.round(pandas_ewm, 6))
print("max abs diff < 1e-12:", bool(np.max(np.abs(manual - pandas_ewm)) < 1e-12))

kernel = np.ones(3) / 3
conv = np.convolve(values, kernel, mode="valid")
sma = s.rolling(3).mean().dropna().to_numpy()
print("convolve SMA:", np.round(conv, 4))
print("agree:", bool(np.allclose(conv, sma)))
