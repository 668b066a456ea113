import pandas as pd

students = pd.DataFrame(
    {"student": ["ana", "ben", "cai", "dia"], "club": ["chess", "chess", "drama", "robotics"]}
)
meetings = pd.DataFrame(
    {
        "club": ["chess", "chess", "drama", "robotics", "robotics"],
        "day": ["Mon", "Thu", "Wed", "Tue", "Fri"],
    }
)

schedule = students.merge(meetings, on="club")
print(schedule.sort_values(["student", "day"]).to_string(index=False))
print("rows:", len(schedule))

try:
    students.merge(meetings, on="club", validate="one_to_one")
except pd.errors.MergeError as exc:
    print("validate failed:", exc)

per_day = schedule.groupby("day")["student"].apply(lambda s: ", ".join(sorted(s)))
print(per_day.reindex(["Mon", "Tue", "Wed", "Thu", "Fri"]).to_string())
