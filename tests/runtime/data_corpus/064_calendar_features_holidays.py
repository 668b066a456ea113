import datetime as dt

import pandas as pd
from dateutil.relativedelta import MO, TH, relativedelta

year = 2025
thanksgiving = dt.date(year, 11, 1) + relativedelta(weekday=TH(4))
labor_day = dt.date(year, 9, 1) + relativedelta(weekday=MO(1))
memorial_day = dt.date(year, 5, 31) + relativedelta(weekday=MO(-1))
holidays = pd.to_datetime(
    [
        dt.date(year, 1, 1),
        memorial_day,
        dt.date(year, 7, 4),
        labor_day,
        thanksgiving,
        dt.date(year, 12, 25),
    ]
)
print("holidays:", [d.strftime("%a %b %d") for d in holidays])

cal = pd.DataFrame(index=pd.date_range(f"{year}-01-01", f"{year}-12-31", freq="D"))
cal["is_holiday"] = cal.index.isin(holidays)
cal["is_weekend"] = cal.index.dayofweek >= 5
cal["workday"] = ~(cal["is_holiday"] | cal["is_weekend"])
per_month = cal.groupby(cal.index.month)["workday"].sum()
print(per_month.to_string())
print("total workdays:", int(cal["workday"].sum()))
print(
    "days until next holiday from 2025-06-15:",
    (holidays[holidays > "2025-06-15"][0] - pd.Timestamp("2025-06-15")).days,
)
print("quarter ends:", cal.index[cal.index.is_quarter_end].strftime("%m-%d").tolist())
print("leap year?", cal.index.is_leap_year[0])
