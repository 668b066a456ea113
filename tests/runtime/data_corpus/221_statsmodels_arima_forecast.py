"""Time-series forecasting with statsmodels: ARIMA and SARIMAX (state space) on daily data."""
# inputs: stocks.csv
import numpy as np
import pandas as pd
from statsmodels.tsa.arima.model import ARIMA
from statsmodels.tsa.statespace.sarimax import SARIMAX

df = pd.read_csv("/input/stocks.csv", parse_dates=["date"])
close = (df[df["ticker"] == "ACME"].set_index("date")["close"].asfreq("B").ffill())
print("observations:", len(close), "from", close.index[0].date(), "to", close.index[-1].date())
returns = np.log(close).diff().dropna()
print(f"mean daily log return: {returns.mean():.6f}, std: {returns.std():.6f}")

arima = ARIMA(close, order=(1, 1, 0), trend="t").fit()
print("ARIMA(1,1,0) with drift:", arima.params.round(3).to_dict())
print(f"ARIMA AIC: {arima.aic:.2f}")
forecast = arima.get_forecast(steps=5)
frame = forecast.summary_frame(alpha=0.05)
print(frame[["mean", "mean_ci_lower", "mean_ci_upper"]].round(2).to_string())

rng = np.random.default_rng(3)
idx = pd.date_range("2022-01-01", periods=120, freq="MS")
season = np.tile([5, 3, 0, -2, -4, -5, -3, 0, 2, 4, 6, 4], 10)
series = pd.Series(50 + 0.3 * np.arange(120) + season + rng.normal(0, 1.0, 120), index=idx)
sarimax = SARIMAX(series, order=(1, 0, 0), seasonal_order=(0, 1, 1, 12), trend="c").fit(disp=False)
print("SARIMAX params:", sarimax.params.round(2).to_dict())
print("next 6 months:", sarimax.forecast(6).round(1).tolist())
residuals = sarimax.resid[13:]
print(f"residual std: {residuals.std():.2f}")
