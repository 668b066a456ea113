# inputs: survey.csv
import re

import pandas as pd

df = pd.read_csv("/input/survey.csv", keep_default_na=False)
c = df["comment"].str.strip()
df["comment_clean"] = (
    c.str.lower().str.replace(r"[^\w\s]", "", regex=True).str.replace(r"\s+", " ", regex=True)
)
df["empty"] = c.isin(["", "N/A"])
df["n_words"] = df["comment_clean"].str.split().str.len()
df["shouting"] = c.str.contains(r"\b[A-Z]{3,}\b")
df["exclaims"] = c.str.count("!")

print("empty or N/A:", int(df["empty"].sum()))
print("mean words:", round(df.loc[~df["empty"], "n_words"].mean(), 4))
print("shouting comments:", df.loc[df["shouting"], "comment"].unique().tolist())
print("total exclamation marks:", int(df["exclaims"].sum()))
words = df.loc[~df["empty"], "comment_clean"].str.split().explode()
print()
print(words.value_counts().head(8).to_string())
keywords = {
    "speed": r"slow|late|delivery",
    "price": r"price|expensive",
    "praise": r"great|excellent|loved|helpful",
}
for topic, pat in keywords.items():
    hits = df["comment_clean"].str.contains(pat, flags=re.I)
    print(
        f"{topic:<7} {int(hits.sum()):>3} comments, "
        f"mean satisfaction {df.loc[hits, 'satisfaction'].mean():.3f}"
    )
