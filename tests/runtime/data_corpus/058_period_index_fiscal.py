"""Fiscal-year reporting with PeriodIndex (fiscal year ends in June)."""
import pandas as pd

months = pd.period_range("2023-01", "2024-12", freq="M")
revenue = pd.Series(range(100, 100 + 5 * len(months), 5), index=months, dtype="int64")

fy = revenue.index.asfreq("Q-JUN")
print("first quarters:", [str(p) for p in fy[:7]])
by_fq = revenue.groupby(fy).sum()
print(by_fq.to_string())
fiscal_year = revenue.index.to_timestamp().to_period("Y-JUN")
print()
print(revenue.groupby(fiscal_year).agg(["sum", "count"]))
p = pd.Period("2024Q1", freq="Q-JUN")
print()
print("2024Q1 (FY ending June) runs", p.start_time.date(), "to", p.end_time.date())
print("months in span:", len(pd.period_range(p.start_time, p.end_time, freq="M")))
