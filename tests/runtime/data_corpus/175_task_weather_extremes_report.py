# inputs: weather.csv
"""Agent task: find each city's extreme days and write a markdown-style text report."""
import pandas as pd

w = pd.read_csv("/input/weather.csv", parse_dates=["date"])
lines = ["# Weather extremes 2023", ""]
for city, g in w.groupby("city"):
    g = g.set_index("date")
    hottest = g["temp_max"].idxmax()
    coldest = g["temp_min"].idxmin()
    wettest = g["precip_mm"].idxmax()
    dry_run = (g["precip_mm"].fillna(0) == 0).astype(int)
    longest_dry = int(dry_run.groupby((dry_run != dry_run.shift()).cumsum()).sum().max())
    lines += [
        f"## {city}",
        f"- hottest: {hottest:%Y-%m-%d} ({g.loc[hottest, 'temp_max']:.1f} C)",
        f"- coldest night: {coldest:%Y-%m-%d} ({g.loc[coldest, 'temp_min']:.1f} C)",
        f"- wettest: {wettest:%Y-%m-%d} ({g.loc[wettest, 'precip_mm']:.1f} mm)",
        f"- longest dry spell: {longest_dry} days",
        f"- frost days: {int((g['temp_min'] < 0).sum())}",
        "",
    ]
report = "\n".join(lines)
with open("extremes.md", "w") as f:
    f.write(report)
print(report)
