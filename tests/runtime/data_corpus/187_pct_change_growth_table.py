import pandas as pd

gdp = pd.DataFrame({
    "year": range(2015, 2025),
    "alpha": [100, 102.1, 104.9, 107.2, 109.0, 101.3, 107.8, 111.0, 113.2, 115.9],
    "beta": [80, 83.5, 86.0, 88.9, 92.1, 90.0, 95.4, 99.1, 101.6, 104.0],
}).set_index("year")
growth = gdp.pct_change().mul(100).round(2)
print(growth)
cagr = ((gdp.iloc[-1] / gdp.iloc[0]) ** (1 / (len(gdp) - 1)) - 1) * 100
print("CAGR %:", cagr.round(4).to_dict())
print("worst year:", growth.idxmin().to_dict())
idx = (gdp / gdp.iloc[0] * 100).round(1)
print(idx.tail(3))
print("years beta outgrew alpha:", growth.index[growth["beta"] > growth["alpha"]].tolist())
print("rolling 3y mean growth:")
print(growth.rolling(3).mean().round(3).dropna().head(4))
