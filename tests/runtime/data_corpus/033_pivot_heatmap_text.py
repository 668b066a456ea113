# inputs: events.jsonl
"""Weekday x hour activity table printed as a text heat map."""

import pandas as pd

ev = pd.read_json("/input/events.jsonl", lines=True, convert_dates=["ts"])
ev["weekday"] = ev["ts"].dt.day_name().str[:3]
ev["block"] = (ev["ts"].dt.hour // 4) * 4

grid = ev.pivot_table(
    index="weekday", columns="block", values="user", aggfunc="count", fill_value=0
)
order = [d for d in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] if d in grid.index]
grid = grid.loc[order]
print(grid)

shades = " .:-=+*#%@"
peak = grid.to_numpy().max()
print()
print("     " + "".join(f"{c:>4}" for c in grid.columns))
for day, row in grid.iterrows():
    cells = "".join(f"{shades[min(9, int(9 * v / peak))] * 3:>4}" for v in row)
    print(f"{day:<5}{cells}")
print("peak block count:", int(peak))
