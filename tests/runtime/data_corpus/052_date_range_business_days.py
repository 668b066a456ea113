"""Business-day calendars: date_range, bdate_range, offsets and holidays."""

import pandas as pd
from pandas.tseries.offsets import BDay, BMonthEnd, CustomBusinessDay

holidays = pd.to_datetime(["2024-12-25", "2024-12-26", "2025-01-01"])
cbd = CustomBusinessDay(holidays=holidays)

days = pd.date_range("2024-12-20", "2025-01-06", freq=cbd)
print("working days:", [d.strftime("%a %m-%d") for d in days])
print("count:", len(days))
print("plain bdays:", len(pd.bdate_range("2024-12-20", "2025-01-06")))

start = pd.Timestamp("2024-12-23")
print("start + 3 BDay:", start + 3 * BDay())
print("start + 3 custom:", start + 3 * cbd)
print("month end (business):", start + BMonthEnd())
print(
    "quarter starts 2025:",
    [d.date().isoformat() for d in pd.date_range("2025-01-01", periods=4, freq="QS")],
)
print(
    "every 2nd friday:", [d.day for d in pd.date_range("2025-01-01", "2025-03-31", freq="2W-FRI")]
)
print(
    "semi-month:", [d.strftime("%m/%d") for d in pd.date_range("2025-01-01", periods=6, freq="SMS")]
)
