# inputs: survey.csv
import pandas as pd

survey = pd.read_csv("/input/survey.csv")
survey["age_band"] = pd.cut(
    survey["age"], bins=[17, 29, 44, 59, 120], labels=["18-29", "30-44", "45-59", "60+"]
)
survey["promoter"] = survey["recommend"].str.lower().eq("yes")

table = survey.groupby("age_band", observed=False).agg(
    n=("respondent_id", "count"),
    mean_satisfaction=("satisfaction", "mean"),
    promoter_rate=("promoter", "mean"),
)
print(table.round(3))
print()
print("respondents without an age:", int(survey["age"].isna().sum()))
survey["group_no"] = survey.groupby(["gender"]).ngroup()
print(
    survey.drop_duplicates("gender")[["gender", "group_no"]]
    .sort_values("group_no")
    .to_string(index=False)
)
