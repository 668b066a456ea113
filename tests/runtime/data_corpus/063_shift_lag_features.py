"""Build lag features for a forecasting model."""
import numpy as np
import pandas as pd

idx = pd.date_range("2024-01-01", periods=21, freq="D")
demand = pd.Series(np.array([120, 132, 128, 141, 150, 98, 90, 125, 135, 131, 144, 158, 101, 95,
                             129, 140, 136, 149, 163, 104, 97], dtype=float), index=idx)
feat = pd.DataFrame({"y": demand})
for lag in (1, 7):
    feat[f"lag_{lag}"] = demand.shift(lag)
feat["diff_7"] = demand.diff(7)
feat["pct_1"] = demand.pct_change().round(4)
feat["dow"] = idx.dayofweek
feat["lead_1"] = demand.shift(-1)
feat["tshift"] = demand.shift(1, freq="D").reindex(idx)
train = feat.dropna()
print(train.head(8))
print(len(train), "usable rows")
naive_err = (train["y"] - train["lag_7"]).abs().mean()
print("seasonal naive MAE:", round(naive_err, 4))
