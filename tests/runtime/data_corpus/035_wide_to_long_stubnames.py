import pandas as pd

df = pd.DataFrame({
    "id": [1, 2, 3],
    "name": ["pump", "valve", "motor"],
    "temp_2022": [61.5, 40.2, 75.0], "temp_2023": [63.1, 41.0, 77.4],
    "load_2022": [0.71, 0.35, 0.88], "load_2023": [0.75, 0.30, 0.91],
})
long = pd.wide_to_long(df, stubnames=["temp", "load"], i=["id", "name"], j="year", sep="_")
print(long)
print()
long = long.reset_index()
long["temp_per_load"] = (long["temp"] / long["load"]).round(2)
print(long.sort_values(["name", "year"]).to_string(index=False))
change = long.pivot(index="name", columns="year", values="temp").diff(axis=1)[2023].round(2)
print()
print("temperature change:", change.to_dict())
