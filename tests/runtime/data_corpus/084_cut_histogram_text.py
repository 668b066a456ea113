# inputs: events.jsonl
import pandas as pd

ev = pd.read_json("/input/events.jsonl", lines=True)
dur_s = ev["duration_ms"] / 1000
bins = [0, 0.5, 1, 2, 4, 6, 10]
binned = pd.cut(dur_s, bins=bins, include_lowest=True)
counts = binned.value_counts(sort=False)
width = 40
for interval, n in counts.items():
    bar = "#" * round(width * n / counts.max())
    print(f"{interval!s:>14} {n:4d} {bar}")
print("total:", int(counts.sum()))
print("share under 2s:", round((dur_s <= 2).mean(), 4))
deciles = pd.qcut(dur_s, 10, labels=False)
print("decile sizes:", deciles.value_counts().sort_index().tolist())
