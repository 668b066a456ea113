# inputs: weather.csv
import pandas as pd

w = pd.read_csv("/input/weather.csv", parse_dates=["date"])
madrid = w[w["city"] == "Madrid"].set_index("date")

print("rows in 2023-07:", len(madrid.loc["2023-07"]))
print(madrid.loc["2023-07-14":"2023-07-18", ["temp_max", "temp_min"]])
print()
heat = madrid[madrid["temp_max"] >= 35]
print("days >= 35C:", len(heat))
runs = (heat.index.to_series().diff() != pd.Timedelta("1D")).cumsum()
longest = heat.groupby(runs).size().max()
print("longest heat streak:", longest, "days")
print("first/last hot day:", heat.index.min().date(), heat.index.max().date())
print()
print("at_time-style selection via boolean index on weekday:")
sundays = madrid[madrid.index.dayofweek == 6]
print(len(sundays), "sundays; mean max", round(sundays["temp_max"].mean(), 3))
print("truncate:", madrid.truncate(before="2023-12-29").index.strftime("%d %b").tolist())
