"""Flight durations across time zones, with local departure and arrival times."""

import pandas as pd

flights = pd.DataFrame(
    {
        "flight": ["LH400", "NH10", "QF1", "BA117", "LA800"],
        "dep_local": [
            "2024-03-30 22:05",
            "2024-10-26 11:00",
            "2024-04-06 15:45",
            "2024-10-27 08:20",
            "2024-04-05 21:30",
        ],
        "dep_tz": [
            "Europe/Berlin",
            "Asia/Tokyo",
            "Australia/Sydney",
            "Europe/London",
            "America/Santiago",
        ],
        "arr_local": [
            "2024-03-31 00:45",
            "2024-10-26 09:25",
            "2024-04-07 05:30",
            "2024-10-27 11:05",
            "2024-04-06 14:40",
        ],
        "arr_tz": [
            "America/New_York",
            "America/New_York",
            "Asia/Singapore",
            "America/New_York",
            "Europe/Madrid",
        ],
    }
)
rows = []
for f in flights.itertuples():
    dep = pd.Timestamp(f.dep_local).tz_localize(f.dep_tz)
    arr = pd.Timestamp(f.arr_local).tz_localize(f.arr_tz)
    rows.append(
        {
            "flight": f.flight,
            "dep_utc": dep.tz_convert("UTC"),
            "arr_utc": arr.tz_convert("UTC"),
            "dep_offset": dep.strftime("%z"),
            "arr_offset": arr.strftime("%z"),
            "duration": arr - dep,
        }
    )
out = pd.DataFrame(rows)
out["hours"] = out["duration"].dt.total_seconds() / 3600
print(out.to_string(index=False))
print("longest:", out.loc[out["hours"].idxmax(), "flight"])
out.assign(
    dep_utc=out["dep_utc"].dt.strftime("%Y-%m-%dT%H:%MZ"),
    arr_utc=out["arr_utc"].dt.strftime("%Y-%m-%dT%H:%MZ"),
    duration=out["duration"].astype(str),
).to_csv("flights_utc.csv", index=False)
