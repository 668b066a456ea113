import itertools

import pandas as pd

start = pd.Timestamp("2024-01-31")
print("plus 1 month (DateOffset):", start + pd.DateOffset(months=1))
print("MonthEnd:", start + pd.offsets.MonthEnd(1))
print("MonthBegin:", start + pd.offsets.MonthBegin(1))
print("YearEnd:", start + pd.offsets.YearEnd())
print("Week(weekday=0):", start + pd.offsets.Week(weekday=0))
print("LastWeekOfMonth fri:", start + pd.offsets.LastWeekOfMonth(weekday=4))

due = pd.Series(pd.to_datetime(["2024-01-15", "2024-02-29", "2024-03-31", "2024-11-30"]))
print(
    "rolled forward to month end:", (due + pd.offsets.MonthEnd(0)).dt.strftime("%Y-%m-%d").tolist()
)
print("next quarter end:", (due + pd.offsets.QuarterEnd(1)).dt.strftime("%Y-%m-%d").tolist())
print(
    "months between:",
    [(b.year - a.year) * 12 + b.month - a.month for a, b in itertools.pairwise(due)],
)
print("floor to week:", due.dt.to_period("W").dt.start_time.dt.strftime("%Y-%m-%d").tolist())
print("day of year:", due.dt.dayofyear.tolist())
print("days in month:", due.dt.days_in_month.tolist())
