# inputs: stocks.csv
"""Agent task: evaluate an equal-weight portfolio rebalanced monthly."""

import numpy as np
import pandas as pd

px = pd.read_csv("/input/stocks.csv", parse_dates=["date"]).pivot(
    index="date", columns="ticker", values="close"
)
rets = px.pct_change().dropna()
weights = pd.Series(1 / px.shape[1], index=px.columns)
month = rets.index.to_period("M")
value = 1.0
values = []
for _, block in rets.groupby(month):
    growth = (1 + block).cumprod()
    path = value * (growth * weights).sum(axis=1)
    values.append(path)
    value = path.iloc[-1]
curve = pd.concat(values)
daily = curve.pct_change().fillna(curve.iloc[0] - 1)
ann_ret = (curve.iloc[-1]) ** (252 / len(curve)) - 1
ann_vol = daily.std() * np.sqrt(252)
dd = (curve / curve.cummax() - 1).min()
print(f"final value: {curve.iloc[-1]:.6f}")
print(f"annualised return: {ann_ret:.4%}")
print(f"annualised volatility: {ann_vol:.4%}")
print(f"sharpe (rf=0): {ann_ret / ann_vol:.4f}")
print(f"max drawdown: {dd:.4%}")
monthly = curve.resample("ME").last().pct_change().fillna(curve.resample("ME").last().iloc[0] - 1)
print((monthly * 100).round(3).rename("monthly_%").to_string())
curve.round(6).rename("portfolio").to_csv("equity_curve.csv", header=True)
