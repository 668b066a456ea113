import pandas as pd

readings = pd.Series(
    [10.0, 14.0, 13.0, 20.0],
    index=pd.to_datetime(
        ["2024-01-01 00:00", "2024-01-01 03:00", "2024-01-01 04:00", "2024-01-01 08:00"]
    ),
)
hourly = readings.resample("h").asfreq()
print(
    pd.DataFrame(
        {
            "asfreq": hourly,
            "ffill": readings.resample("h").ffill(),
            "linear": hourly.interpolate(),
            "time": hourly.interpolate(method="time"),
            "nearest": readings.resample("h").nearest(),
        }
    )
)
print()
half = readings.resample("30min").interpolate()
print("30-min points:", len(half), "mean:", round(half.mean(), 6))
down = readings.resample("4h", label="right", closed="right").mean()
print(down)
