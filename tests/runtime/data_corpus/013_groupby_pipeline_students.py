"""Rank classes by average exam score with a method-chained pipeline."""

import pandas as pd

scores = pd.DataFrame(
    {
        "student": [f"s{i:02d}" for i in range(1, 19)],
        "klass": list("ABCABCABCABCABCABC"),
        "math": [71, 88, 65, 90, 79, 58, 84, 92, 73, 66, 81, 77, 95, 70, 62, 59, 86, 80],
        "reading": [80, 75, 70, 85, 90, 64, 78, 88, 69, 72, 84, 81, 91, 67, 73, 61, 79, 83],
    }
)

result = (
    scores.assign(total=lambda d: d["math"] + d["reading"])
    .assign(passed=lambda d: (d["math"] >= 65) & (d["reading"] >= 65))
    .groupby("klass")
    .agg(
        students=("student", "count"),
        avg_total=("total", "mean"),
        pass_rate=("passed", "mean"),
        best=("total", "max"),
    )
    .assign(
        avg_total=lambda d: d["avg_total"].round(2), pass_rate=lambda d: d["pass_rate"].round(3)
    )
    .sort_values("avg_total", ascending=False)
)
print(result)
print()
print("Correlation math vs reading:", round(scores["math"].corr(scores["reading"]), 6))
