import pandas as pd

# Grades with credit weights; compute each student's GPA
rows = [
    ("alice", "math", 4.0, 5),
    ("alice", "history", 3.3, 3),
    ("alice", "art", 3.7, 2),
    ("brian", "math", 2.7, 5),
    ("brian", "history", 3.0, 3),
    ("brian", "chem", 3.3, 4),
    ("carla", "math", 3.7, 5),
    ("carla", "chem", 4.0, 4),
    ("carla", "art", 2.3, 2),
    ("dmitri", "history", 3.0, 3),
]
df = pd.DataFrame(rows, columns=["student", "course", "grade", "credits"])
df["points"] = df["grade"] * df["credits"]

gpa = df.groupby("student").apply(
    lambda g: pd.Series(
        {"credits": g["credits"].sum(), "gpa": g["points"].sum() / g["credits"].sum()}
    ),
    include_groups=False,
)
gpa["gpa"] = gpa["gpa"].round(3)
gpa["credits"] = gpa["credits"].astype(int)
print(gpa.sort_values("gpa", ascending=False))

# Same thing without apply
sums = df.groupby("student")[["points", "credits"]].sum()
check = (sums["points"] / sums["credits"]).round(3)
print()
print("apply and vectorised agree:", bool((check == gpa["gpa"]).all()))
print("honours:", list(check[check >= 3.5].index))
