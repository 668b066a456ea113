import pandas as pd

laps = pd.to_timedelta(
    ["00:01:32.450", "00:01:31.980", "00:01:33.105", "00:01:31.770", "00:01:32.010"]
)
s = pd.Series(laps, index=pd.RangeIndex(1, 6, name="lap"), name="time")
print(s)
print("total:", s.sum(), "mean:", s.mean(), "best:", s.idxmin(), s.min())
print("seconds:", s.dt.total_seconds().tolist())
print("components:")
print(s.dt.components[["minutes", "seconds", "milliseconds"]])
elapsed = s.cumsum()
print("elapsed at lap 3:", elapsed.loc[3])
tdi = pd.timedelta_range(start="0s", periods=5, freq="90s")
print(tdi.tolist()[-1], len(tdi))
print("rounded:", s.dt.round("s").astype(str).tolist())
