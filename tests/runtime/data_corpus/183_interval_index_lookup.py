import pandas as pd

bands = pd.IntervalIndex.from_breaks([0, 18.5, 25, 30, 35, 60], closed="left")
labels = pd.Series(["underweight", "normal", "overweight", "obese I", "obese II+"], index=bands)
people = pd.DataFrame(
    {
        "name": ["ana", "bo", "cy", "di", "ed"],
        "kg": [50, 72, 95, 110, 66],
        "m": [1.70, 1.80, 1.75, 1.68, 1.60],
    }
)
people["bmi"] = (people["kg"] / people["m"] ** 2).round(2)
people["class"] = labels.reindex(people["bmi"]).to_numpy()
print(people.to_string(index=False))
print("interval of 24.9:", bands[bands.get_loc(24.9)])
print("contains 30:", [str(i) for i in bands if 30 in i])
print("overlaps [24,26):", bands.overlaps(pd.Interval(24, 26, closed="left")).tolist())
iv = pd.Interval(1, 5)
print(iv, "length", iv.length, "mid", iv.mid, "closed", iv.closed)
