"""Compute ticket resolution times in business hours (Mon-Fri, 9-17)."""

import pandas as pd

tickets = pd.DataFrame(
    {
        "ticket": ["T1", "T2", "T3", "T4", "T5"],
        "opened": pd.to_datetime(
            [
                "2024-04-05 16:30",
                "2024-04-08 08:00",
                "2024-04-08 10:15",
                "2024-04-10 17:45",
                "2024-04-12 12:00",
            ]
        ),
        "closed": pd.to_datetime(
            [
                "2024-04-08 10:00",
                "2024-04-08 09:30",
                "2024-04-08 16:45",
                "2024-04-11 11:00",
                "2024-04-15 09:15",
            ]
        ),
    }
)


def business_minutes(start, end):
    minutes = pd.date_range(start.ceil("min"), end, freq="min", inclusive="left")
    mask = (minutes.dayofweek < 5) & (minutes.hour >= 9) & (minutes.hour < 17)
    return int(mask.sum())


tickets["wall_hours"] = ((tickets["closed"] - tickets["opened"]).dt.total_seconds() / 3600).round(2)
tickets["business_hours"] = [
    round(business_minutes(o, c) / 60, 2)
    for o, c in zip(tickets["opened"], tickets["closed"], strict=True)
]
tickets["met_4h_sla"] = tickets["business_hours"] <= 4
print(tickets.to_string(index=False))
print()
print("SLA attainment:", f"{tickets['met_4h_sla'].mean():.0%}")
bh = pd.offsets.BusinessHour(start="09:00", end="17:00")
print("T1 + 4 business hours:", tickets.loc[0, "opened"] + 4 * bh)
