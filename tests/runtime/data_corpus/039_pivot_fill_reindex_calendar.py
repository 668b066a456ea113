import pandas as pd

visits = pd.DataFrame(
    {
        "day": pd.to_datetime(
            ["2024-02-01", "2024-02-01", "2024-02-03", "2024-02-06", "2024-02-06", "2024-02-07"]
        ),
        "clinic": ["north", "south", "north", "north", "south", "south"],
        "patients": [12, 7, 9, 15, 4, 8],
    }
)
table = visits.pivot(index="day", columns="clinic", values="patients")
full = (
    table.reindex(pd.date_range("2024-02-01", "2024-02-07", freq="D"), fill_value=0)
    .fillna(0)
    .astype(int)
)
full.index.name = "day"
print(full)
print()
print(
    "days with no visits at all:", [d.strftime("%a %d") for d in full.index[full.sum(axis=1) == 0]]
)
print("weekly totals:", full.sum().to_dict())
