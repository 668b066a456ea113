# inputs: sales.csv
import pandas as pd

sales = pd.read_csv("/input/sales.csv", parse_dates=["date"])
sales["revenue"] = sales["units"] * sales["unit_price"]
daily = sales.groupby("date")["revenue"].sum().asfreq("D", fill_value=0.0)
trend = pd.DataFrame({
    "revenue": daily.round(2),
    "r7_sum": daily.rolling("7D").sum().round(2),
    "r7_mean": daily.rolling(7, min_periods=7).mean().round(2),
    "wow_pct": (daily.rolling(7).sum().pct_change(7) * 100).round(1),
})
print(trend.loc["2024-03-01":"2024-03-16"])
best_week_end = trend["r7_sum"].idxmax()
print()
print("best 7-day window ends", best_week_end.date(), "with", trend.loc[best_week_end, "r7_sum"])
print("zero-revenue days:", int((daily == 0).sum()))
