import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
steps = rng.choice([-1, 1], size=(5, 1000))
paths = steps.cumsum(axis=1)
print("final positions:", paths[:, -1].tolist())
print("max excursions:", np.abs(paths).max(axis=1).tolist())
first_hit = [int(np.argmax(np.abs(p) >= 20)) if (np.abs(p) >= 20).any() else -1 for p in paths]
print("first step reaching |20|:", first_hit)
gbm_returns = rng.normal(0.0005, 0.01, size=(252, 3))
prices = 100 * np.exp(np.cumsum(gbm_returns, axis=0))
frame = pd.DataFrame(
    prices, columns=["A", "B", "C"], index=pd.bdate_range("2024-01-01", periods=252)
)
print(frame.iloc[[0, 62, 125, 251]].round(4))
print("annual return %:", ((frame.iloc[-1] / 100 - 1) * 100).round(3).to_dict())
