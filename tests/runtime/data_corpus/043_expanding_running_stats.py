"""Running totals and records with expanding windows."""
import pandas as pd

daily_steps = pd.Series(
    [8200, 10450, 6300, 12100, 9800, 15020, 7600, 11300, 13900, 5400, 16250, 9900, 10100, 12800],
    index=pd.date_range("2024-06-01", periods=14, freq="D"),
)
df = daily_steps.to_frame("steps")
df["running_total"] = df["steps"].expanding().sum().astype(int)
df["running_mean"] = df["steps"].expanding().mean().round(1)
df["personal_best"] = df["steps"].expanding().max().astype(int)
df["new_record"] = df["steps"] == df["personal_best"]
df["cummax_check"] = df["steps"].cummax()
print(df)
print()
print("record days:", [d.strftime("%b %d") for d in df.index[df["new_record"]]])
print("days above 10k:", int((df["steps"] >= 10_000).sum()), "of", len(df))
