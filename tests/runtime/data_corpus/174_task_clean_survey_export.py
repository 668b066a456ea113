# inputs: survey.csv
"""Agent task: clean the survey export and write a tidy CSV plus a data-quality log."""

import pandas as pd

raw = pd.read_csv("/input/survey.csv", dtype=str, keep_default_na=False)
log = []
df = raw.copy()
df["age"] = pd.to_numeric(df["age"], errors="coerce").astype("Int64")
log.append(f"age: {int(df['age'].isna().sum())} missing")
df["income"] = pd.to_numeric(df["income"].str.replace(r"[$,]", "", regex=True), errors="coerce")
log.append(f"income: {int(df['income'].isna().sum())} missing")
country_map = {
    "us": "US",
    "usa": "US",
    "united states": "US",
    "uk": "GB",
    "u.k.": "GB",
    "germany": "DE",
    "de": "DE",
    "france": "FR",
    "fr": "FR",
}
df["country"] = df["country"].str.strip().str.lower().map(country_map)
log.append(f"country: {int(df['country'].isna().sum())} unmapped")
df["recommend"] = df["recommend"].str.strip().str.lower().map({"yes": True, "no": False})
df["satisfaction"] = df["satisfaction"].astype(int)
df["comment"] = df["comment"].str.strip().replace({"": pd.NA, "N/A": pd.NA})
log.append(f"comment: {int(df['comment'].isna().sum())} empty")
df = df.sort_values("respondent_id")
df.to_csv("survey_clean.csv", index=False)
with open("quality_log.txt", "w") as f:
    f.write("\n".join(log) + "\n")
print("\n".join(log))
print(df.dtypes.to_string())
print(df.head(5).to_string(index=False))
